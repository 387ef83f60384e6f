"""The rules for the seeds' other review findings (issue 18): what golden files cannot show."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from torchfix.rewrite import registry

REPO = Path(__file__).resolve().parent.parent
RULES = {
    "detach-before-numpy": "codemods/correctness/detach_before_numpy.py",
    "typing-any": "codemods/correctness/typing_any.py",
    "swallowed-exception": "codemods/correctness/swallowed_exception.py",
    "layernorm-channels": "codemods/correctness/layernorm_channels.py",
    "exp-overflow": "codemods/numerics/exp_overflow.py",
    "quantile-not-kthvalue": "codemods/numerics/quantile_not_kthvalue.py",
    "atanh-clamp": "codemods/numerics/atanh_clamp.py",
}


def test_rule_modules_import_no_libcst():
    # `codemods/__init__.py` still imports the legacy codemods (and libcst): load the
    # packages empty and each rule module by its path, as `check` would need them.
    script = "\n".join([
        "import importlib, sys, types",
        f"root = {str(REPO)!r}",
        "for name in ('codemods', 'codemods.correctness', 'codemods.numerics'):",
        "    package = types.ModuleType(name)",
        "    package.__path__ = [root + '/' + name.replace('.', '/')]",
        "    sys.modules[name] = package",
        *(f"importlib.import_module({path[:-3].replace('/', '.')!r})" for path in RULES.values()),
        "assert 'libcst' not in sys.modules, 'libcst was imported'",
    ])
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=REPO)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", sorted(RULES))
def test_explain_documents_each_rule(cli, name):
    result = cli("explain", name)
    assert result.exit_code == 0
    for section in ("What it does", "Why", "Example", "Fix safety"):
        assert section in result.stdout, (name, section)


def test_list_shows_which_rules_are_on(cli):
    rows = [[cell.strip() for cell in line.split("│")[1:-1]]
            for line in cli("list").stdout.splitlines() if line.startswith("│")]
    default = {row[0]: row[-1] for row in rows if row[0]}
    assert default["swallowed-exception"] == "off"
    for name in set(RULES) - {"swallowed-exception"}:
        assert default[name] == "on", name
    assert registry.get("layernorm-channels").fix_safety == "report"


def test_swallowed_exception_runs_only_when_selected(cli, tmp_path):
    (tmp_path / "job.py").write_text(
        "import logging\nlogger = logging.getLogger(__name__)\n\n\ndef f(x):\n"
        "    try:\n        x.flush()\n    except Exception:\n        pass\n")
    assert "swallowed-exception" not in cli("check", "--show-all", "job.py").stdout
    selected = cli("check", "--show-all", "--select", "swallowed-exception", "job.py")
    assert "job.py:8:5 swallowed-exception" in selected.stdout


def test_atanh_margins_round_as_torch_rounds():
    torch = pytest.importorskip("torch")
    from codemods.numerics.atanh_clamp import PRECISION, _rounds_to_one

    dtypes = {name: getattr(torch, name) for name, _ in PRECISION}
    for exponent in range(2, 10):
        for mantissa in (1.0, 2.5, 3.0, 5.0, 9.9):
            margin = mantissa * 10.0 ** -exponent
            for bound in (1.0 - margin, -(1.0 - margin)):
                rounded = {name for name, dtype in dtypes.items()
                           if abs(torch.tensor(bound, dtype=dtype).item()) == 1.0}
                assert set(_rounds_to_one(bound)) == rounded, (bound, rounded)


def test_exp_overflow_bound_must_be_usable(cli, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.torchfix.exp-overflow]\nbound = 1000.0\n")
    (tmp_path / "m.py").write_text("import math\n\n\ndef s(x):\n    return 1 / (1 + math.exp(x))\n")
    result = cli("check", "--select", "exp-overflow", "m.py")
    assert result.exit_code == 2
    assert "bound must be a number between 1 and 709" in result.stderr
