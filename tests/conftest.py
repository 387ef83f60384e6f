"""Shared helpers: run the real CLI on files in a temporary folder."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from torchfix.cli import app

# A snippet the always-present strict-load-state-dict codemod rewrites (safe fix) under
# its `explicit-default = true` policy, which `_explicit_strict` below turns on in-process
# for every test, and EXPLICIT_STRICT_CONFIG in a project's pyproject.toml for torchfix
# run in another process (the suite runs the CLI, not that codemod's policy; its default
# is in its golden cases).
# (The receiver must be known to be a module for the fix to be safe: its annotation says so.)
MODULE_IMPORT = "from torch import nn\n\n\n"
NEEDS_FIX = MODULE_IMPORT + "def resume(model: nn.Module, ckpt):\n    model.load_state_dict(ckpt)\n"
FIXED = (MODULE_IMPORT
         + "def resume(model: nn.Module, ckpt):\n    model.load_state_dict(ckpt, strict=True)\n")
# A snippet with only an unsafe finding (the receiver is not known to be a module).
UNSAFE_ONLY = "def resume(thing, ckpt):\n    thing.load_state_dict(ckpt)\n"
CLEAN = FIXED
EXPLICIT_STRICT_CONFIG = "[tool.torchfix.strict-load-state-dict]\nexplicit-default = true\n"


@pytest.fixture(autouse=True)
def _explicit_strict(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """strict-load-state-dict with `explicit-default = true` as its default, in this
    process and the worker processes it forks: the snippets above are its fixes. A
    `python -m torchfix` run in a subprocess (or a Ray worker) does not see this: the
    tests that run one give their project the option in a configuration file
    (`EXPLICIT_STRICT_CONFIG`). Not for the golden cases and the selftest: they run the
    codemods' own defaults, and their configuration files say otherwise."""
    if request.path.name in ("test_golden.py", "test_selftest.py"):
        return
    from codemods.checkpoints.strict_load_state_dict import StrictLoadStateDict

    options = tuple(replace(option, default=True) if option.name == "explicit-default"
                    else option for option in StrictLoadStateDict.options)
    monkeypatch.setattr(StrictLoadStateDict, "options", options)


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str
    stdout_bytes: bytes = b""


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Run `torchfix ARGS` in-process with tmp_path as the current folder."""
    monkeypatch.chdir(tmp_path)

    def run(*args: str) -> CliResult:
        result = CliRunner().invoke(app, list(args))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return CliResult(result.exit_code, result.stdout, result.stderr, result.stdout_bytes)

    return run


def run_torchfix(*args: str, cwd: Path, env: dict[str, str] | None = None,
                 python_flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """Run `python -m torchfix ARGS` in a subprocess, as a user's shell would."""
    return subprocess.run(
        [sys.executable, *python_flags, "-m", "torchfix", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
    )


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def git_repo(tmp_path: Path) -> Iterator[Path]:
    git("init", "-q", "-b", "main", cwd=tmp_path)
    git("config", "user.email", "dev@example.com", cwd=tmp_path)
    git("config", "user.name", "Dev", cwd=tmp_path)
    yield tmp_path
