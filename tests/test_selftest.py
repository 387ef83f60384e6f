"""`torchfix selftest` runs the shipped golden cases and smoke scenarios and tells the truth."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from torchfix import smoke
from torchfix.smoke import Scenario, ScenarioFailed

from conftest import run_torchfix

REPO = Path(__file__).resolve().parent.parent


def test_selftest_passes_and_reports_per_codemod(cli):
    result = cli("selftest", "--select", "strict-load-state-dict")
    assert result.exit_code == 0, result.stdout
    assert "strict-load-state-dict" in result.stdout
    assert " 0 failed" in result.stdout


def _broken(_folder: Path) -> None:
    raise ScenarioFailed("ratio is inf after the rewrite")


def _cuda_only(_folder: Path) -> None:
    smoke.require_cuda()


@pytest.fixture
def extra_scenarios(monkeypatch):
    def install(*scenarios: Scenario) -> None:
        original = smoke.all_scenarios
        monkeypatch.setattr(smoke, "all_scenarios", lambda: [*original(), *scenarios])
        import torchfix.selftest

        monkeypatch.setattr(torchfix.selftest, "all_scenarios", smoke.all_scenarios)

    return install


def test_a_failing_scenario_fails_the_selftest(cli, extra_scenarios):
    extra_scenarios(Scenario("strict-load-state-dict", "broken", _broken))
    result = cli("selftest", "--select", "strict-load-state-dict")
    assert result.exit_code == 1
    assert "FAILED smoke strict-load-state-dict/broken: ratio is inf" in result.stdout


def test_cuda_scenarios_skip_unless_asked_and_fail_when_asked_without_cuda(cli, extra_scenarios):
    extra_scenarios(Scenario("strict-load-state-dict", "on_gpu", _cuda_only, needs_cuda=True))
    plain = cli("selftest", "--select", "strict-load-state-dict")
    assert plain.exit_code == 0
    assert "SKIPPED smoke strict-load-state-dict/on_gpu: needs CUDA" in plain.stdout
    import torch

    if torch.cuda.is_available():
        pytest.skip("a CUDA device is present: the scenario would pass")
    asked = cli("selftest", "--gpu", "--select", "strict-load-state-dict")
    assert asked.exit_code == 1
    assert "FAILED smoke strict-load-state-dict/on_gpu: no CUDA device available" in asked.stdout


def test_selftest_does_not_rely_on_asserts(tmp_path):
    result = run_torchfix("selftest", "--select", "strict-load-state-dict", cwd=tmp_path,
                          python_flags=("-O",))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_wheel_ships_golden_cases_and_scenarios(tmp_path):
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path),
         str(REPO)],
        capture_output=True, text=True, timeout=600,
    )
    if built.returncode != 0:
        pytest.fail(f"building the wheel failed: {built.stderr[-2000:]}")
    [wheel] = tmp_path.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    golden = {name for name in names if name.startswith("torchfix/_golden/")}
    shipped_cases = {name.split("/", 2)[2] for name in golden}
    repo_cases = {path.relative_to(REPO / "golden").as_posix()
                  for path in (REPO / "golden").rglob("*") if path.is_file()}
    assert shipped_cases == repo_cases
    assert "torchfix/smoke/strict_load_state_dict.py" in names

    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    result = subprocess.run(
        [sys.executable, "-m", "torchfix", "selftest", "--select", "strict-load-state-dict"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={"PYTHONPATH": str(installed), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "passed, 0 failed" in result.stdout
