"""Edited lines laid out as black and ruff format would (`torchfix.rewrite.layout`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from torchfix.model.module_names import module_name_for
from torchfix.model.project import Project
from torchfix.rewrite.contract import FileContext
from torchfix.rewrite.layout import joins_on_one_line, split_line


def context(tmp_path: Path, source: str, config: str = "") -> FileContext:
    path = tmp_path / "m.py"
    path.write_text(source)
    if config:
        (tmp_path / "pyproject.toml").write_text(config)
    return FileContext(path, source, ast.parse(source), Project(tmp_path),
                       module_name_for(path))


def renamed(tmp_path: Path, source: str, config: str = "") -> str | None:
    """The layout of the first `torch.save` reference renamed to a longer name."""
    file = context(tmp_path, source, config)
    node = next(n for n in ast.walk(file.tree)
                if isinstance(n, ast.Attribute) and n.attr == "save")
    span = file.span(node)
    split = split_line(file, node, [(span.column, span.end_column, "_atomic_save_helper_function")])
    return None if split is None else split.code


def test_a_call_outgrowing_its_line_gets_its_arguments_on_a_line_of_their_own(
        tmp_path: Path) -> None:
    source = ("def f(x):\n"
              "    torch.save(x, os.path.join(output_dir, 'predictions_final_epoch_00001.pt'))\n")
    assert renamed(tmp_path, source) == (
        "_atomic_save_helper_function(\n"
        "    x, os.path.join(output_dir, 'predictions_final_epoch_00001.pt')\n)")


def test_the_project_line_length_decides(tmp_path: Path) -> None:
    source = ("def f(x):\n"
              "    torch.save(x, os.path.join(output_dir, 'predictions_final_epoch_00001.pt'))\n")
    assert renamed(tmp_path, source, "[tool.ruff]\nline-length = 100\n") is None


def test_a_display_is_split_one_element_per_line(tmp_path: Path) -> None:
    source = ("SAVERS = {\n    'raw': {'extension': 'pth', 'saver': torch.save, "
              "'kwargs': {'a': 1, 'b': 2}},\n}\n")
    assert renamed(tmp_path, source) == (
        "{\n        'extension': 'pth',\n        'saver': _atomic_save_helper_function,\n"
        "        'kwargs': {'a': 1, 'b': 2},\n    }")  # indented from the statement's line


@pytest.mark.parametrize("line", [
    # too long before the edit: the formatter's business, not the edit's
    "    torch.save(x, os.path.join(output_directory_for_all, 'predictions_final_epoch_1.pt'))",
    # a pragma applies to its line
    "    torch.save(x, os.path.join(output_dir, 'predictions_fxxxx.pt'))  # noqa: S614",
    # black splits at the operator first
    "    y = torch.save(x, os.path.join(output_dir, 'predictions_finxxxxxx.pt')) or y",
    # two statements on a line
    "    y = 1; torch.save(x, os.path.join(output_dir, 'predictions_finalxxxxxx.pt'))",
])
def test_lines_black_would_lay_out_otherwise_are_left(tmp_path: Path, line: str) -> None:
    assert renamed(tmp_path, f"def f(x, y):\n{line}\n") is None


def joins(tmp_path: Path, source: str, replacement: str) -> bool:
    file = context(tmp_path, source)
    call = next(n for n in ast.walk(file.tree)
                if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "masked_fill")
    return joins_on_one_line(file, call, {id(call.args[1]): replacement})


def test_a_call_that_fits_once_edited_is_joined(tmp_path: Path) -> None:
    source = ("def f(out, mask):\n    out = out.masked_fill(\n"
              "        mask.unsqueeze(-1), torch.tensor(float('nan'), device=out.device)\n"
              "    )\n")
    assert joins(tmp_path, source, "float('nan')")
    assert not joins(tmp_path, source, "float('nan')" + " " * 60)


@pytest.mark.parametrize("call", [
    "out.masked_fill(\n        mask, torch.tensor(0.0),\n    )",  # magic trailing comma
    "out.masked_fill(\n        mask,  # padding\n        torch.tensor(0.0)\n    )",
])
def test_calls_the_formatter_keeps_split_are_not_joined(tmp_path: Path, call: str) -> None:
    assert not joins(tmp_path, f"def f(out, mask):\n    out = {call}\n", "0.0")


def test_a_file_longer_than_88_columns_without_a_configured_length_is_not_split(
        tmp_path: Path) -> None:
    source = ("def f(x):\n"
              "    torch.save(x, os.path.join(output_dir, 'predictions_final_epoch_00001.pt'))\n"
              f"    y = {' + '.join(['x'] * 30)}\n")  # code past 88: no formatter keeps it
    assert renamed(tmp_path, source) is None
    assert renamed(tmp_path, source, "[tool.black]\nline-length = 88\n") is not None


def test_a_long_string_does_not_make_a_file_longer_than_88_columns(tmp_path: Path) -> None:
    # black cannot wrap a string: deepinv's 90-column error message (round 17) had kept
    # its `weights_only=True` lines from being split
    source = ("def f(x):\n"
              "    torch.save(x, os.path.join(output_dir, 'predictions_final_epoch_00001.pt'))\n"
              f"    raise ValueError('{'a' * 100}')\n")
    assert renamed(tmp_path, source) is not None


def test_long_docstrings_and_comments_do_not_count_as_long_code(tmp_path: Path) -> None:
    source = ('def f(x):\n    """Save.\n\n    ' + "word " * 20 + '\n    """\n'
              "    # " + "comment " * 12 + "\n"
              "    torch.save(x, os.path.join(output_dir, 'predictions_final_epoch_00001.pt'))\n")
    assert renamed(tmp_path, source) is not None
