"""The engine's guarantees: verified output, the prefilter, positions, chained codemods."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest

from codemods import CODEMODS
from codemods.checkpoints.strict_load_state_dict import StrictLoadStateDict
from torchfix.engine.process import EngineSettings, process_source
from torchfix.rewrite import registry
from torchfix.rewrite.codemod import TorchfixCodemod

SOURCE = (b"from torch import nn\n\n\n"
          b"def resume(model: nn.Module, sd):\n    model.load_state_dict(sd)\n    return 41\n")


class _Broken(TorchfixCodemod):
    """Test codemods with the bugs the engine must catch before anything is written."""

    triggers = (b"return",)
    summary = "test"

    def leave_Integer(self, original_node: cst.Integer, updated_node: cst.Integer):
        return self.fix(original_node, updated_node, self.replace(updated_node), "bump")

    def replace(self, node: cst.Integer) -> cst.BaseExpression:
        raise NotImplementedError


class EmitsInvalidCode(_Broken):
    name = "emits-invalid-code"

    def replace(self, node):
        return cst.Name("return")  # a keyword: libcst builds it, no parser accepts it


class RepeatsAKeyword(_Broken):
    name = "repeats-a-keyword"

    def leave_Call(self, original_node, updated_node):
        arg = cst.Arg(cst.Name("True"), keyword=cst.Name("strict"))
        return self.fix(original_node, updated_node,
                        updated_node.with_changes(args=[*updated_node.args, arg, arg]), "dup")

    def replace(self, node):
        return node


class NotIdempotent(_Broken):
    name = "not-idempotent"

    def replace(self, node):
        return node.with_changes(value=str(int(node.value) + 1))


class Crashes(_Broken):
    name = "crashes"

    def replace(self, node):
        raise ZeroDivisionError("division by zero")


@pytest.fixture
def with_codemods(monkeypatch):
    def install(*extra: type[TorchfixCodemod]) -> None:
        monkeypatch.setattr(registry, "all_codemods", lambda: (*CODEMODS, *extra))

    return install


@pytest.mark.parametrize(
    ("codemod", "message"),
    [
        (EmitsInvalidCode, "internal error: codemod emits-invalid-code produced code that "
                           "does not parse"),
        (RepeatsAKeyword, "internal error: codemod repeats-a-keyword produced invalid Python: "
                          "keyword argument repeated: strict (line 5)"),
        (NotIdempotent, "internal error: codemod not-idempotent is not idempotent"),
        (Crashes, "internal error in codemod crashes: ZeroDivisionError: division by zero"),
    ],
)
def test_broken_codemods_are_internal_errors_and_nothing_is_written(
    tmp_path, cli, with_codemods, codemod, message
):
    with_codemods(codemod)
    target = tmp_path / "train.py"
    target.write_bytes(SOURCE)
    result = cli("apply", "--select", f"strict-load-state-dict,{codemod.name}", ".")
    assert result.exit_code == 1
    assert f"train.py: error: {message}" in result.stderr
    assert target.read_bytes() == SOURCE


def test_files_without_triggers_are_never_parsed():
    settings = EngineSettings(codemods=("strict-load-state-dict",))
    result = process_source(b"def f(x):\n    return x\n", Path("a.py"), settings)
    assert not result.parsed and not result.changes


def test_files_whose_syntax_tree_has_no_candidates_are_never_parsed_by_libcst():
    settings = EngineSettings(codemods=("strict-load-state-dict",))
    source = b'def load_state_dict(self, sd):\n    """Mirrors load_state_dict."""\n'
    result = process_source(source, Path("a.py"), settings)
    assert not result.parsed


def test_only_statements_with_findings_are_visited_by_the_editor(monkeypatch):
    from torchfix.rewrite import editing

    visited: list[str] = []
    original = editing.PrimitiveEditor.on_visit

    def spy(self, node):
        if isinstance(node, cst.FunctionDef):
            visited.append(node.name.value)
        return original(self, node)

    monkeypatch.setattr(editing.PrimitiveEditor, "on_visit", spy)
    source = (
        "from torch import nn\n"
        "class Trainer:\n"
        "    def step(self):\n"
        "        def inner():\n"
        "            return 1\n"
        "        return inner()\n"
        "    def resume(self, model: nn.Module, sd):\n"
        "        model.load_state_dict(sd)\n"
    )
    settings = EngineSettings(codemods=("strict-load-state-dict",))
    result = process_source(source.encode(), Path("a.py"), settings)
    assert [c.line for c in result.changes] == [8]
    assert result.output is not None and b"strict=True" in result.output
    assert "inner" not in visited  # `step` is seen (to be skipped), its body is not


def test_positions_match_libcst_for_nested_and_multiline_code(monkeypatch):
    source = (
        "import torch\n"
        "\n"
        "\n"
        "class Runner:\n"
        "    # resume support\n"
        "    @staticmethod\n"
        "    def resume(model, sd):\n"
        "        if sd:\n"
        "            x = [model.load_state_dict(\n"
        "                sd), model.load_state_dict(sd)]\n"
        "        return x\n"
    )
    settings = EngineSettings(codemods=("strict-load-state-dict",), produce_output=False)
    fast = process_source(source.encode(), Path("a.py"), settings)
    # The same, computed by libcst's PositionProvider over the whole module.
    monkeypatch.setattr(TorchfixCodemod, "_position_in_statement", lambda self, node: None)
    full = process_source(source.encode(), Path("a.py"), settings)
    assert [(c.line, c.column) for c in fast.changes] == [(9, 18), (10, 22)]
    assert fast.changes == full.changes


def test_later_codemods_report_lines_of_the_file_as_read(with_codemods):
    class AddsHeader(TorchfixCodemod):
        name = "adds-header"
        summary = "test"
        triggers = (b"import",)

        def leave_Module(self, original_node, updated_node):
            if updated_node.header:
                return updated_node
            header = [cst.EmptyLine(comment=cst.Comment("# added")) for _ in range(5)]
            return self.fix(original_node, updated_node,
                            updated_node.with_changes(header=header), "adds five lines")

    with_codemods(AddsHeader)
    # Settings list codemods in run order: the header comes first, shifting every line.
    settings = EngineSettings(codemods=("adds-header", "strict-load-state-dict"))
    result = process_source(b"import torch\n" + SOURCE, Path("a.py"), settings)
    strict = [c for c in result.changes if c.codemod == "strict-load-state-dict"]
    assert [c.line for c in strict] == [6]
    assert result.output is not None and result.output.count(b"# added") == 5


def test_check_mode_reports_the_same_changes_without_output():
    fix = process_source(SOURCE, Path("a.py"), EngineSettings(codemods=("strict-load-state-dict",)))
    report = process_source(SOURCE, Path("a.py"),
                            EngineSettings(codemods=("strict-load-state-dict",),
                                           produce_output=False))
    assert fix.changes == report.changes
    assert fix.output is not None and report.output is None
    assert report.would_change


def test_candidate_lines_see_the_same_tree_python_does():
    tree = ast.parse(SOURCE.decode())
    assert StrictLoadStateDict.candidate_lines(tree) == {5}


def test_codemods_with_matcher_decorators_still_dispatch_through_libcst(with_codemods):
    import libcst.matchers as m

    class DecoratedBump(TorchfixCodemod):
        name = "decorated-bump"
        summary = "test"
        triggers = (b"return",)

        @m.call_if_inside(m.Return())
        @m.leave(m.Integer())
        def bump(self, original_node: cst.Integer, updated_node: cst.Integer) -> cst.Integer:
            if updated_node.value != "41":
                return updated_node
            return self.fix(original_node, updated_node,
                            updated_node.with_changes(value="42"), "answer")

    with_codemods(DecoratedBump)
    result = process_source(SOURCE, Path("a.py"), EngineSettings(codemods=("decorated-bump",)))
    assert result.output == SOURCE.replace(b"41", b"42")


def test_files_a_codemod_skips_by_path_are_never_parsed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    settings = EngineSettings(codemods=("assert-to-raise",))
    source = b"def check(lr):\n    assert lr > 0\n"
    in_tests = process_source(source, Path("tests/test_model.py"), settings)
    assert not in_tests.parsed and not in_tests.changes
    in_library = process_source(source, Path("pkg/model.py"), settings)
    assert in_library.parsed and in_library.changes
