"""Huge files never hold up a run: work per file is linear in its size, and a file over
`max-file-size` gets one line and is skipped before it is read."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from torchfix.engine import process as engine
from torchfix.engine import rewrite_file
from torchfix.rewrite.contract import Change, Safety

from conftest import FIXED, NEEDS_FIX

T = TypeVar("T")

BIG_FIX = ("import torch\n\n\ndef resume(model: torch.nn.Module, ckpt):\n"
           + "    model.load_state_dict(ckpt)\n" * 80)


@pytest.fixture
def parses(monkeypatch) -> list[Path]:
    """Every file the engine really processes."""
    seen: list[Path] = []
    original = engine.process_source

    def counting(data, path, settings, *rest, **options):
        seen.append(path)
        return original(data, path, settings, *rest, **options)

    monkeypatch.setattr(engine, "process_source", counting)
    return seen


def test_a_file_over_the_limit_gets_one_line_and_the_others_go_on(tmp_path, cli, parses):
    (tmp_path / "pyproject.toml").write_text("[tool.torchfix]\nmax-file-size = 0.001\n")
    (tmp_path / "big.py").write_text(BIG_FIX)  # 2,617 bytes
    (tmp_path / "small.py").write_text(NEEDS_FIX)

    check = cli("check", ".")
    assert check.exit_code == 1
    assert "big.py: error: too large (0.0025 MB > 0.001 MB); skipped" in check.stderr
    assert check.stdout.startswith("small.py:5:5 strict-load-state-dict")
    assert [path.name for path in parses] == ["small.py"]  # big.py never reached the engine

    applied = cli("apply", "--no-cache", ".")
    assert applied.exit_code == 1
    assert (tmp_path / "small.py").read_text() == FIXED
    assert (tmp_path / "big.py").read_text() == BIG_FIX
    assert "2 files scanned, 1 changed, 1 error" in applied.stderr


def test_the_default_limit_is_five_megabytes(tmp_path, cli, parses):
    huge = "model.load_state_dict(sd)\n" + "# " + "x" * (5 * 1024 * 1024) + "\n"
    (tmp_path / "huge.py").write_text(huge)
    result = cli("check", "huge.py")
    assert result.exit_code == 1
    assert "huge.py: error: too large (5.0 MB > 5 MB); skipped" in result.stderr
    assert parses == []


def test_a_skipped_file_is_not_cached_as_anything(tmp_path, cli, parses):
    (tmp_path / "big.py").write_text(BIG_FIX)
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.torchfix]\nmax-file-size = 0.001\n")
    assert "too large" in cli("check", ".").stderr
    config.write_text("[tool.torchfix]\nmax-file-size = 1\n")
    again = cli("check", ".")
    assert "too large" not in again.stderr and again.stdout.count("big.py:") == 80
    assert [path.name for path in parses] == ["big.py"]


@pytest.mark.parametrize("value", ["0", "-1", '"2"', "true", "inf", "nan"])
def test_an_invalid_max_file_size_is_a_configuration_error(tmp_path, cli, value):
    (tmp_path / "pyproject.toml").write_text(f"[tool.torchfix]\nmax-file-size = {value}\n")
    (tmp_path / "a.py").write_text(NEEDS_FIX)
    result = cli("check", ".")
    assert result.exit_code == 2
    assert "[tool.torchfix] max-file-size must be a positive number (megabytes)" in (
        result.stderr)


def _mapping_work(lines: int) -> int:
    """Python lines executed to map one position back through an earlier codemod's edits,
    on the file of the issue: the same call and the same list over and over, every call
    rewritten by an earlier codemod."""
    before = "".join("model.load_state_dict(sd)\n" if n % 3 else "values = [1, 2, 3]\n"
                     for n in range(lines))
    after = "import torch\n" + before.replace("(sd)", "(sd, strict=True)")
    last_list = 3 * ((lines - 1) // 3) + 1  # the line of the last (unchanged) list
    changes = [Change("atomic-save", last_list + 1, 1, "save atomically", Safety.SAFE, True)]
    executed, (mapped,) = _lines_executed(
        lambda: rewrite_file._map_lines(changes, before, after))
    assert mapped.line == last_list  # its line in the file as read
    return executed


def _lines_executed(work: Callable[[], T]) -> tuple[int, T]:
    """How many Python lines `work()` executes (a measure of work that no machine's speed
    changes), and what it returns."""
    executed = 0

    def count(frame, event, arg):
        nonlocal executed
        executed += event == "line"
        return count

    previous = sys.gettrace()
    sys.settrace(count)
    try:
        result = work()
    finally:
        sys.settrace(previous)
    return executed, result


def test_mapping_positions_through_earlier_edits_is_linear_in_the_lines():
    # difflib compared every pair of equal lines: 4x the lines took 16x the work.
    small, large = _mapping_work(600), _mapping_work(2_400)
    assert large <= 4.5 * small


def _edits_work(rows: int) -> tuple[int, list]:
    """Python lines executed to find the edits of a fix (what `--format json` reports) in
    a file of repeated rows, as neural-compressor's Hadamard tables: one assert rewritten
    at the top, the rows unchanged."""
    from torchfix.output.fixes import file_edits

    table = "".join("    [1, -1, 1, -1],\n" if n % 2 else "    [1, 1, -1, -1],\n"
                    for n in range(rows))
    before = f"def f(n):\n    assert n > 0\n    return [\n{table}    ]\n".encode()
    after = before.replace(b"    assert n > 0\n",
                           b"    if n <= 0:\n        raise ValueError(n)\n")
    return _lines_executed(lambda: file_edits(before, after, "utf-8"))


def test_edits_of_a_fix_are_found_in_linear_work_on_repeated_lines():
    # difflib's SequenceMatcher compared every pair of equal rows: neural-compressor's
    # 97,000-line quarot_utils.py held `check --format json` for minutes (round 22).
    (small, small_edits), (large, large_edits) = _edits_work(500), _edits_work(2_000)
    assert large <= 4.5 * small
    assert small_edits == large_edits  # one edit, at the assert, either way
    assert [(edit.line, edit.end_line) for edit in large_edits] == [(2, 2)]
    assert "raise ValueError(n)" in large_edits[0].content


def test_positions_of_chained_codemods_match_check_on_repetitive_code(tmp_path, cli):
    source = (
        "import torch\n\nscaler = torch.cuda.amp.GradScaler()\n\n"
        + "model.load_state_dict(sd)\nmodel.load_state_dict(sd)\nvalues = [1, 2, 3]\n" * 150
        + "torch.save(model, path)\n"
    )
    (tmp_path / "big.py").write_text(source)
    checked = json.loads(cli("check", "--format", "json", "--no-cache", ".").stdout)
    applied = json.loads(cli("apply", "--dry-run", "--format", "json", "--no-cache",
                             ".").stdout)
    assert len(applied["findings"]) > 300
    assert applied["findings"] == checked["findings"]
