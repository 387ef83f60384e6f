"""`torchfix selftest`: the golden cases and smoke scenarios, run from the installed package.

Users run it before a batch migration to check torchfix against their own torch version
and hardware. It needs no test framework: the golden harness and the scenarios are part
of the package.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import TYPE_CHECKING

from torchfix.golden import discover_cases, run_case
from torchfix.smoke import Scenario, ScenarioFailed, ScenarioSkipped, all_scenarios

if TYPE_CHECKING:
    from typer import Typer


@dataclass(frozen=True)
class Check:
    """One check of `torchfix selftest` and how it went."""

    kind: str  # "golden" or "smoke"
    codemod: str
    name: str
    status: str  # "passed", "failed" or "skipped"
    detail: str = ""
    seconds: float = 0.0


def planned(selected: Iterable[str] | None) -> tuple[list, list[Scenario]]:
    names = set(selected) if selected is not None else None
    cases = [case for case in discover_cases() if names is None or case.codemod in names]
    scenarios = [s for s in all_scenarios() if names is None or s.codemod in names]
    return cases, scenarios


def run_selftest(
    selected: Iterable[str] | None,
    gpu: bool,
    cli: Typer,
    on_check: Callable[[Check], None] | None = None,
) -> list[Check]:
    cases, scenarios = planned(selected)
    checks: list[Check] = []

    def record(check: Check) -> None:
        checks.append(check)
        if on_check is not None:
            on_check(check)

    for case in cases:
        started = time.perf_counter()
        try:
            outcome = run_case(case, cli)
            status, detail = ("passed", "") if outcome.passed else ("failed", outcome.message)
        except Exception as exc:  # a crash in one case must not hide the others
            status, detail = "failed", f"{type(exc).__name__}: {exc}"
        record(Check("golden", case.codemod, case.name, status, detail,
                     time.perf_counter() - started))
    for scenario in scenarios:
        record(_run_scenario(scenario, gpu))
    return checks


def _run_scenario(scenario: Scenario, gpu: bool) -> Check:
    started = time.perf_counter()
    if scenario.needs_cuda and not gpu:
        return Check("smoke", scenario.codemod, scenario.name, "skipped",
                     "needs CUDA: run `torchfix selftest --gpu` on a GPU machine")
    try:
        with TemporaryDirectory(prefix="torchfix-selftest-") as folder:
            scenario.run(Path(folder))
    except ScenarioSkipped as skip:
        # Asked to test the GPU and there is none: that is a failure, not a skip.
        status = "failed" if scenario.needs_cuda and gpu else "skipped"
        return Check("smoke", scenario.codemod, scenario.name, status, str(skip))
    except ScenarioFailed as failure:
        return Check("smoke", scenario.codemod, scenario.name, "failed", str(failure),
                     time.perf_counter() - started)
    except Exception as exc:  # the rewritten code crashed: exactly what this is for
        return Check("smoke", scenario.codemod, scenario.name, "failed",
                     f"{type(exc).__name__}: {exc}", time.perf_counter() - started)
    return Check("smoke", scenario.codemod, scenario.name, "passed", "",
                 time.perf_counter() - started)
