"""clamp-log-ratio's `bound` option, from the engine and from pyproject.toml (its fixes
are unsafe: the runs ask for unsafe fixes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from torchfix.cli import app
from torchfix.engine.process import process_source
from torchfix.engine.results import EngineSettings

CODEMOD = "clamp-log-ratio"
SOURCE = """\
import torch


def ratios(policy, batch):
    new_log_probs = policy.log_prob(batch.actions)
    old_log_probs = batch.old_log_probs
    a = torch.exp(new_log_probs - old_log_probs)
    b = (new_log_probs - old_log_probs).exp()
    return a, b
"""


def _rewrite(options: dict[str, object]) -> str:
    settings = EngineSettings(codemods=(CODEMOD,), options={CODEMOD: options}, unsafe_fixes=True)
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
    settings = EngineSettings(codemods=(CODEMOD,), options={CODEMOD: {"bound": bound}},
                              unsafe_fixes=True)
    result = process_source(SOURCE.encode(), Path("ppo.py"), settings)
    assert result.error is not None
    assert "bound must be positive and finite" in result.error.message
    assert result.output is None


def _cli(tmp_path: Path, config: str, *args: str) -> tuple[int, str]:
    (tmp_path / "pyproject.toml").write_text(config, encoding="utf-8")
    (tmp_path / "ppo.py").write_text(SOURCE, encoding="utf-8")
    result = CliRunner().invoke(
        app, ["apply", "--select", CODEMOD, "--unsafe-fixes", "--quiet", "--jobs", "1",
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


LONG = """\
import torch


def ratio(batch, actions_log_prob):
    return torch.exp(actions_log_prob - torch.squeeze(batch.old_actions_log_prob))
"""
ONE_LINE = (
    "    return torch.exp(torch.clamp(actions_log_prob - "
    "torch.squeeze(batch.old_actions_log_prob), min=-20.0, max=20.0))\n"
)


def _rewrite_in(folder: Path, source: str, options: dict[str, object] | None = None) -> str:
    from torchfix.model.project import Project

    settings = EngineSettings(codemods=(CODEMOD,), options={CODEMOD: options or {}},
                              unsafe_fixes=True)
    result = process_source(source.encode(), folder / "ppo.py", settings, Project(folder))
    assert result.error is None, result.error
    assert result.output is not None
    return result.output.decode()


def test_a_clamp_past_88_columns_is_laid_out_over_lines(tmp_path):
    output = _rewrite_in(tmp_path, LONG)
    assert ONE_LINE not in output
    assert "    return torch.exp(\n        torch.clamp(\n" in output
    assert all(len(line) <= 88 for line in output.splitlines())


@pytest.mark.parametrize("config", [
    "[tool.ruff]\nline-length = 120\n",
    "[tool.black]\nline-length = 120\n",
])
def test_the_projects_formatter_line_length_is_used(tmp_path, config):
    (tmp_path / "pyproject.toml").write_text(config, encoding="utf-8")
    assert ONE_LINE in _rewrite_in(tmp_path, LONG)


def test_the_line_length_option_wins_over_the_formatters(tmp_path):
    (tmp_path / "ruff.toml").write_text("line-length = 88\n", encoding="utf-8")
    assert ONE_LINE in _rewrite_in(tmp_path, LONG, {"line-length": 120})


def test_line_length_of_the_wrong_type_is_a_usage_error(tmp_path):
    code, output = _cli(tmp_path, '[tool.torchfix.clamp-log-ratio]\nline-length = "wide"\n')
    assert code == 2, output
    assert (tmp_path / "ppo.py").read_text(encoding="utf-8") == SOURCE


@pytest.mark.parametrize("path", ["tests/test_ppo.py", "test_ratio.py", "pkg/conftest.py",
                                  "ppo_test.py"])
def test_test_code_is_left_alone(path):
    settings = EngineSettings(codemods=(CODEMOD,), unsafe_fixes=True)
    result = process_source(SOURCE.encode(), Path(path), settings)
    assert result.error is None and result.output is None and not result.changes


def test_check_does_not_import_libcst():
    import subprocess
    import sys

    code = (
        "import sys, types\n"
        "package = types.ModuleType('codemods'); package.__path__ = ['codemods']\n"
        "sys.modules['codemods'] = package\n"
        "import codemods.numerics.clamp_log_ratio\n"
        "assert 'libcst' not in sys.modules, 'libcst imported'\n"
    )
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)
