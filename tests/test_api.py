"""The Python API for tools that embed torchfix."""

from __future__ import annotations

import subprocess
import sys

import pytest

import torchfix

from conftest import FIXED, NEEDS_FIX, UNSAFE_ONLY


def test_importing_torchfix_does_not_import_the_engine():
    probe = ("import sys, torchfix; "
             "loaded = [m for m in ('libcst', 'torchfix.engine.process', 'torchfix.api', 'typer') "
             "if m in sys.modules]; print(loaded)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
    assert "check_source" in dir(torchfix)
    with pytest.raises(AttributeError):
        torchfix.no_such_thing  # noqa: B018


def test_check_source_lists_findings_with_positions_and_safety():
    result = torchfix.check_source(NEEDS_FIX + UNSAFE_ONLY.replace("resume", "other"))
    assert [(f.line, f.column, f.end_line, f.end_column, f.safety, f.applies)
            for f in result.findings] == [(5, 5, 5, 32, "safe", True),
                                          (7, 5, 7, 32, "unsafe", False)]
    assert result.failed
    finding = result.findings[0]
    assert finding.codemod == "strict-load-state-dict" and finding.path is None
    assert finding.url == f"{torchfix.PROJECT_URL}#strict-load-state-dict"
    assert not torchfix.check_source(FIXED).failed


def test_fix_source_returns_the_new_text_and_its_changes():
    fixed = torchfix.fix_source(NEEDS_FIX)
    assert fixed.changed and fixed.output == FIXED and fixed.source == NEEDS_FIX
    assert [f.applies for f in fixed.findings] == [True]
    untouched = torchfix.fix_source(UNSAFE_ONLY)
    assert not untouched.changed and untouched.output == UNSAFE_ONLY
    assert "strict=True" in torchfix.fix_source(UNSAFE_ONLY, unsafe_fixes=True).output


def test_selection_path_and_options_are_honoured(tmp_path, monkeypatch):
    # A source string is read as a file of the current folder's project, not this
    # repository's. clamp-log-ratio's fixes are unsafe: asked for, they take the option.
    monkeypatch.chdir(tmp_path)
    assert torchfix.check_source(NEEDS_FIX, ignore=["strict-load-state-dict"]).findings == ()
    code = "def f(lr):\n    assert lr > 0, 'lr must be positive'\n"
    assert torchfix.check_source(code).findings
    assert torchfix.check_source(code, path="tests/test_lr.py").findings == ()  # test code
    ratio = "def loss(logp, old_logp):\n    return (logp - old_logp).exp()\n"
    fixed = torchfix.fix_source(ratio, options={"clamp-log-ratio": {"bound": 10.0}})
    assert fixed.output == ratio  # unsafe: not applied unless asked for
    fixed = torchfix.fix_source(ratio, unsafe_fixes=True,
                                options={"clamp-log-ratio": {"bound": 10.0}})
    assert "clamp(-10.0, 10.0)" in fixed.output


def test_errors_are_exceptions_for_strings_and_results_for_paths(tmp_path):
    with pytest.raises(torchfix.SourceError, match="syntax error"):
        torchfix.check_source("def f(model):\n    model.load_state_dict(\n")
    with pytest.raises(ValueError, match="unknown codemod 'nope'"):
        torchfix.fix_source(NEEDS_FIX, select=["nope"])
    with pytest.raises(ValueError, match="bound must be float"):
        torchfix.check_source(NEEDS_FIX, options={"clamp-log-ratio": {"bound": "x"}})

    (tmp_path / "train.py").write_text(NEEDS_FIX)
    (tmp_path / "broken.py").write_text("def f(model):\n    model.load_state_dict(\n")
    (tmp_path / "pyproject.toml").write_text('[tool.torchfix]\nignore = ["atomic-save"]\n')
    result = torchfix.check_paths([tmp_path], jobs=1)
    assert [(f.path, f.line) for f in result.findings] == [(tmp_path / "train.py", 5)]
    assert [(e.path.name, "syntax error" in e.message) for e in result.errors] == [
        ("broken.py", True)]
    assert not (tmp_path / ".torchfix_cache").exists()  # nothing written by default
