"""`check` parses with libcst only the statements holding candidates: what is cut, and how."""

from __future__ import annotations

import ast
import textwrap

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from torchfix.engine.process import EngineSettings, process_bytes
from torchfix.rewrite.codemod import position_in_file
from torchfix.rewrite.sparse_source import sparse_source


def _cut(source: str, lines: set[int]):
    text = textwrap.dedent(source)
    return text, sparse_source(text, ast.parse(text), lines)


def _kept(text: str, cut) -> list[str]:
    return [text.split("\n")[number - 1] for number in cut.line_numbers]


def test_only_top_level_statements_holding_a_candidate_are_kept():
    text, cut = _cut("""\
        import torch

        def first():
            return 1

        def second(x):
            assert x
            return x
        """, {7})
    assert cut is not None
    assert _kept(text, cut) == ["def second(x):", "    assert x", "    return x"]
    assert cut.line_numbers == (6, 7, 8)
    assert cut.text == "def second(x):\n    assert x\n    return x\n"
    cst.parse_module(cut.text)  # the cut is valid Python on its own
    assert [type(node) for node in cut.tree.body] == [ast.FunctionDef]


def test_a_class_keeps_its_header_and_only_the_members_holding_a_candidate():
    text, cut = _cut("""\
        @dataclass
        class Model(
            nn.Module,
        ):
            \"\"\"Docs.\"\"\"

            def __init__(self):
                self.a = 1

            def forward(self, x):
                assert x.ndim == 2
                return x
        """, {11})
    assert cut is not None
    assert _kept(text, cut) == [
        "@dataclass", "class Model(", "    nn.Module,", "):",
        "    def forward(self, x):", "        assert x.ndim == 2", "        return x",
    ]
    module = cst.parse_module(cut.text)
    (cut_class,) = cut.tree.body
    assert [member.name for member in cut_class.body] == ["forward"]
    assert isinstance(module.body[0], cst.ClassDef)
    # The original tree is left whole.
    assert len(ast.parse(text).body[0].body) == 3


def test_a_class_whose_candidate_is_in_its_header_is_kept_whole():
    _, cut = _cut("""\
        x = 1

        @register(torch.load("a"))
        class Model:
            def forward(self):
                return 1
        """, {3})
    assert cut is not None
    assert cut.line_numbers == (3, 4, 5, 6)


def test_statements_sharing_a_line_are_kept_together_and_the_line_once():
    _, cut = _cut("""\
        a = f(
            1); b = 2
        c = 3
        """, {1})
    assert cut is not None
    assert cut.line_numbers == (1, 2)
    assert len(cut.tree.body) == 2  # `b = 2` came along: it is on a kept line
    # A chain of statements each sharing a line with the next comes along either way.
    chain = "w = 0\nx = f(\n    1); y = g(\n    2); z = 3\nv = 4\n"
    for candidate in (2, 4):
        cut = sparse_source(chain, ast.parse(chain), {candidate})
        assert cut is not None
        assert cut.line_numbers == (2, 3, 4)
        assert len(cut.tree.body) == 3


def test_nothing_to_drop_means_no_cut():
    assert _cut("def f(x):\n    assert x\n", {2})[1] is None


def test_crlf_lines_keep_their_endings_and_lone_carriage_returns_are_not_cut():
    text = "import os\r\n\r\ndef f(x):\r\n    assert x\r\n"
    cut = sparse_source(text, ast.parse(text), {4})
    assert cut is not None
    assert cut.text == "def f(x):\r\n    assert x\r\n"
    text = "import os\r\rdef f(x):\r    assert x\r"
    assert sparse_source(text, ast.parse(text), {4}) is None


def test_a_last_line_without_newline_still_ends_the_cut_text():
    text = "import os\ndef f(x):\n    assert x"
    cut = sparse_source(text, ast.parse(text), {3})
    assert cut is not None
    assert cut.text == "def f(x):\n    assert x\n"


def test_positions_in_the_cut_map_back_to_the_file():
    _, cut = _cut("""\
        import torch


        def load(model, path):
            model.load_state_dict(torch.load(path))
        """, {5})
    assert cut is not None
    wrapper = MetadataWrapper(cst.parse_module(cut.text))
    positions = wrapper.resolve(PositionProvider)
    call = next(node for node in positions
                if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                and node.func.attr.value == "load_state_dict")
    assert position_in_file(positions[call], cut.line_numbers) == CodeRange((5, 4), (5, 43))
    # The module ends one past its last line: that maps one past the file's line too.
    end = positions[wrapper.module].end
    assert position_in_file(CodeRange(end, end), cut.line_numbers).start.line == 6


# -- check on a cut gives the findings of the whole file ----------------------------------------

_MODULE = '''\
"""A module with much more code than candidates."""
import torch
from torch import nn

# torchfix: ignore[strict-load-state-dict]
def helper():
    return 1


class Net(nn.Module):
    """Net."""

    def __init__(self):
        super().__init__()
        self.label = "é"; self.layer = nn.Linear(2, 2)

    def load(self, path):
        state = torch.load(path, weights_only=True)
        self.layer.load_state_dict(state)  # the candidate, far from line 1

    def other(self):
        return 2


def public(x, name="ü"):
    label = "é"; assert x > 0, name
    return x
'''


def test_check_on_the_cut_reports_what_apply_changes_at_the_same_places():
    codemods = ("assert-to-raise", "strict-load-state-dict")
    data = _MODULE.encode()
    check = process_bytes(data, _path(), EngineSettings(codemods, produce_output=False))
    apply = process_bytes(data, _path(), EngineSettings(codemods))
    assert check.error is None and apply.error is None
    assert check.changes == apply.changes
    located = {(change.codemod, change.line, change.column) for change in check.changes}
    # Columns count characters, not UTF-8 bytes: the assert follows an "é" on its line.
    assert located == {("strict-load-state-dict", 19, 9), ("assert-to-raise", 26, 18)}


def test_a_suppression_comment_applies_to_findings_read_off_cpythons_tree():
    data = b"def public(x):\n    assert x  # torchfix: ignore[assert-to-raise]\n    return x\n"
    result = process_bytes(data, _path(), EngineSettings(("assert-to-raise",),
                                                         produce_output=False))
    assert result.error is None
    assert result.changes == ()


def _path():
    from pathlib import Path

    return Path("model.py")
