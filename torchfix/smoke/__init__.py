"""Behavioural smoke scenarios: execute code before and after a codemod, with real torch.

Golden files prove the text of a rewrite; a scenario proves its behaviour. Each module in
this package (one per codemod, named after it) exports `SCENARIOS`, a list of `Scenario`.
A scenario rewrites a realistic snippet with torchfix at run time (never a hand-written
"after"), runs both versions and checks the promised difference and nothing else.

Scenarios use `expect()`, never `assert`: they also run from `torchfix selftest`, possibly
under `python -O`, where an assert would silently pass. torch is imported inside the
scenarios only, so torchfix itself never needs it.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import pkgutil
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from torchfix.engine.process import process_source
from torchfix.engine.results import EngineSettings
from torchfix.model.project import Project


class ScenarioFailed(Exception):
    """The rewritten code does not behave as the codemod promises."""


class ScenarioSkipped(Exception):
    """The scenario cannot run here (no torch, no CUDA device); the message says why."""


@dataclass(frozen=True)
class Scenario:
    """A smoke test of a codemod: a run of real torch code in a folder of its own."""

    codemod: str
    name: str
    run: Callable[[Path], None]  # gets an empty folder of its own to work in
    needs_cuda: bool = False

    @property
    def id(self) -> str:
        return f"{self.codemod}/{self.name}"


def expect(condition: object, message: str) -> None:
    if not condition:
        raise ScenarioFailed(message)


SNIPPET_MIN_TORCH = (2, 4)


def rewrite(
    source: str,
    codemod: str,
    *,
    unsafe_fixes: bool = False,
    filename: str = "snippet.py",
    options: Mapping[str, Any] | None = None,
) -> str:
    """`source` after running one codemod on it through the engine.

    Fails the scenario if the codemod changes nothing, so no scenario can pass by
    comparing a snippet with itself.
    """
    settings = EngineSettings(
        codemods=(codemod,),
        unsafe_fixes=unsafe_fixes,
        options={codemod: dict(options or {})},
    )
    # In a folder of its own: the project torchfix is run from (its torch floor, its
    # formatter settings) must not shape what a scenario checks. Like a one-file golden
    # case, the snippet's project supports torch 2.4 on (the smoke runs a newer one).
    # The snippet is on disk too, as a project's files are: the project-wide facts
    # (what the project's torch.save calls write) are read from the files there.
    with tempfile.TemporaryDirectory(prefix="torchfix-smoke-") as folder:
        path = Path(folder) / filename
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(source.encode())
        result = process_source(source.encode(), path, settings,
                                Project(Path(folder), configured_min_torch=SNIPPET_MIN_TORCH))
    if result.error is not None:
        raise ScenarioFailed(f"torchfix could not rewrite the snippet: {result.error.message}")
    if result.output is None:
        raise ScenarioFailed(f"{codemod} left the snippet unchanged")
    return result.output.decode()


_module_counter = itertools.count()


def load_module(source: str, folder: Path, stem: str) -> ModuleType:
    """Import `source` as a fresh module written to `folder/<stem>_<n>.py`."""
    name = f"{stem}_{next(_module_counter)}"
    path = folder / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ScenarioFailed(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    spec.loader.exec_module(module)
    return module


def require_torch() -> ModuleType:
    try:
        return importlib.import_module("torch")
    except ImportError as exc:
        raise ScenarioSkipped("torch is not installed") from exc


def require_cuda() -> ModuleType:
    torch = require_torch()
    if not torch.cuda.is_available():
        raise ScenarioSkipped("no CUDA device available")
    return torch


def all_scenarios() -> list[Scenario]:
    """Every scenario of every module in this package, in module order."""
    scenarios: list[Scenario] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        scenarios.extend(getattr(module, "SCENARIOS", []))
    return scenarios
