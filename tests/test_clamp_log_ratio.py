"""clamp-log-ratio's `bound` option, from the engine and from pyproject.toml."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from torchfix.cli import app
from torchfix.engine.process import EngineSettings, process_source

CODEMOD = "clamp-log-ratio"
SOURCE = """\
import torch


def ratios(new_log_probs, old_log_probs):
    a = torch.exp(new_log_probs - old_log_probs)
    b = (new_log_probs - old_log_probs).exp()
    return a, b
"""


def _rewrite(options: dict[str, object]) -> str:
    settings = EngineSettings(codemods=(CODEMOD,), options={CODEMOD: options})
    result = process_source(SOURCE.encode(), Path("ppo.py"), settings)
    assert result.error is None, result.error
    assert result.output is not None
    return result.output.decode()


def test_default_bound_is_twenty():
    output = _rewrite({})
    assert "torch.clamp(new_log_probs - old_log_probs, min=-20.0, max=20.0)" in output
    assert "(new_log_probs - old_log_probs).clamp(-20.0, 20.0).exp()" in output


@pytest.mark.parametrize("bound", [10.0, 10])
def test_configured_bound_is_written_as_a_float(bound):
    output = _rewrite({"bound": bound})
    assert "torch.clamp(new_log_probs - old_log_probs, min=-10.0, max=10.0)" in output
    assert "(new_log_probs - old_log_probs).clamp(-10.0, 10.0).exp()" in output


@pytest.mark.parametrize("bound", [0.0, -5.0, float("inf"), float("nan")])
def test_unusable_bound_is_a_file_error_not_a_crash(bound):
    settings = EngineSettings(codemods=(CODEMOD,), options={CODEMOD: {"bound": bound}})
    result = process_source(SOURCE.encode(), Path("ppo.py"), settings)
    assert result.error is not None
    assert "bound must be positive and finite" in result.error.message
    assert result.output is None


def _cli(tmp_path: Path, config: str, *args: str) -> tuple[int, str]:
    (tmp_path / "pyproject.toml").write_text(config, encoding="utf-8")
    (tmp_path / "ppo.py").write_text(SOURCE, encoding="utf-8")
    result = CliRunner().invoke(
        app, ["apply", "--select", CODEMOD, "--quiet", "--jobs", "1",
              "--config", str(tmp_path / "pyproject.toml"), *args, str(tmp_path / "ppo.py")]
    )
    return result.exit_code, result.stdout + result.stderr


def test_bound_read_from_pyproject(tmp_path):
    code, output = _cli(tmp_path, "[tool.torchfix.clamp-log-ratio]\nbound = 5\n")
    assert code == 0, output
    fixed = (tmp_path / "ppo.py").read_text(encoding="utf-8")
    assert "torch.clamp(new_log_probs - old_log_probs, min=-5.0, max=5.0)" in fixed
    assert "(new_log_probs - old_log_probs).clamp(-5.0, 5.0).exp()" in fixed


def test_bound_of_the_wrong_type_is_a_usage_error(tmp_path):
    code, output = _cli(tmp_path, '[tool.torchfix.clamp-log-ratio]\nbound = "20"\n')
    assert code == 2, output
    assert (tmp_path / "ppo.py").read_text(encoding="utf-8") == SOURCE


def test_unusable_bound_in_pyproject_is_a_usage_error(tmp_path):
    code, output = _cli(tmp_path, "[tool.torchfix.clamp-log-ratio]\nbound = -3.0\n")
    assert code == 2, output
    assert "[tool.torchfix.clamp-log-ratio] bound: clamp-log-ratio: bound must be" in output
    assert (tmp_path / "ppo.py").read_text(encoding="utf-8") == SOURCE
