"""The engine's guarantees: verified output, the prefilter, positions, chained codemods."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import libcst.matchers as m
import pytest

from codemods.checkpoints.strict_load_state_dict import StrictLoadStateDict
from torchfix.engine.process import process_source
from torchfix.engine.results import EngineSettings
from torchfix.rewrite import registry
from torchfix.rewrite.contract import Codemod, FileContext, Finding
from torchfix.rewrite.editing import Editor
from torchfix.rewrite.transformer import FocusedTransformer

SOURCE = (b"from torch import nn\n\n\n"
          b"def resume(model: nn.Module, sd):\n    model.load_state_dict(sd)\n    return 41\n")


def _ints_and_calls(file: FileContext) -> list[Finding]:
    return [Finding(node, "bump" if isinstance(node, ast.Constant) else "dup")
            for node in ast.walk(file.tree)
            if (isinstance(node, ast.Constant) and type(node.value) is int)
            or isinstance(node, ast.Call)]


class _Broken(Codemod):
    """Test codemods with the bugs the engine must catch before anything is written: each
    decides a change at every integer (and call), and its editor gets it wrong."""

    triggers = (b"return",)
    summary = "test"

    @classmethod
    def check(cls, file: FileContext) -> list[Finding]:
        return _ints_and_calls(file)


class _BrokenEditor(Editor):
    def leave_Integer(self, original_node: cst.Integer, updated_node: cst.Integer):
        finding = self.finding_at(original_node)
        if finding is None:
            return updated_node
        self.done(finding)
        return self.replace(updated_node)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call):
        finding = self.finding_at(original_node)
        if finding is not None:
            self.done(finding)
        return updated_node

    def replace(self, node: cst.Integer) -> cst.BaseExpression:
        raise NotImplementedError


class EmitsInvalidCodeEditor(_BrokenEditor):
    def replace(self, node):
        return cst.Name("return")  # a keyword: libcst builds it, no parser accepts it


class RepeatsAKeywordEditor(_BrokenEditor):
    def leave_Call(self, original_node, updated_node):
        super().leave_Call(original_node, updated_node)
        arg = cst.Arg(cst.Name("True"), keyword=cst.Name("strict"))
        return updated_node.with_changes(args=[*updated_node.args, arg, arg])

    def replace(self, node):
        return node


class NotIdempotentEditor(_BrokenEditor):
    def replace(self, node):
        return node.with_changes(value=str(int(node.value) + 1))


class CrashesEditor(_BrokenEditor):
    def replace(self, node):
        raise ZeroDivisionError("division by zero")


class RecursesForever(_Broken):
    """Its analysis runs in a cycle (a value defined by itself, followed with no check)."""

    name = "recurses-forever"

    @classmethod
    def check(cls, file: FileContext) -> list[Finding]:
        return cls.check(file)


class EmitsInvalidCode(_Broken):
    name = "emits-invalid-code"
    editor = f"{__name__}:EmitsInvalidCodeEditor"


class RepeatsAKeyword(_Broken):
    name = "repeats-a-keyword"
    editor = f"{__name__}:RepeatsAKeywordEditor"


class NotIdempotent(_Broken):
    name = "not-idempotent"
    editor = f"{__name__}:NotIdempotentEditor"


class Crashes(_Broken):
    name = "crashes"
    editor = f"{__name__}:CrashesEditor"


class AddsHeader(Codemod):
    """Five comment lines at the top of every file that has none."""

    name = "adds-header"
    summary = "test"
    triggers = (b"import",)
    editor = f"{__name__}:AddsHeaderEditor"

    @classmethod
    def check(cls, file: FileContext) -> list[Finding]:
        return [] if file.text.startswith("#") else [Finding(file.tree.body[0],
                                                             "adds five lines")]


class AddsHeaderEditor(Editor):
    def leave_Module(self, original_node, updated_node):
        for finding in self.edit.findings:
            self.done(finding)
        header = [cst.EmptyLine(comment=cst.Comment("# added")) for _ in range(5)]
        return updated_node.with_changes(header=header)


class DecoratedBump(Codemod):
    """41 → 42 where it is returned: its editor uses libcst's matcher decorators."""

    name = "decorated-bump"
    summary = "test"
    triggers = (b"return",)
    editor = f"{__name__}:DecoratedBumpEditor"

    @classmethod
    def check(cls, file: FileContext) -> list[Finding]:
        return [Finding(node.value, "answer") for node in ast.walk(file.tree)
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant)
                and node.value.value == 41]


class DecoratedBumpEditor(Editor):
    @m.call_if_inside(m.Return())
    @m.leave(m.Integer())
    def bump(self, original_node: cst.Integer, updated_node: cst.Integer) -> cst.Integer:
        finding = self.finding_at(original_node)
        if finding is None:
            return updated_node
        self.done(finding)
        return updated_node.with_changes(value="42")


@pytest.fixture
def with_codemods(monkeypatch):
    def install(*extra: type[Codemod]) -> None:
        extended = (*registry.entries(), *(registry.Entry.of(codemod) for codemod in extra))
        monkeypatch.setattr(registry, "entries", lambda: extended)

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
        # a shallow file: the RecursionError is the codemod's bug, not "too deeply nested"
        (RecursesForever, "internal error in codemod recurses-forever: RecursionError: "
                          "maximum recursion depth exceeded"),
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


def test_a_codemod_that_cannot_be_imported_is_one_line_per_file(tmp_path, cli, monkeypatch):
    """A broken install (a codemod module missing or failing to import) is reported on
    the files that trigger it, one line each, with no traceback; the rest still run."""
    broken = registry.Entry("broken-import", ".no_such_family.no_such_module:Missing", (),
                            (b"load_state_dict",), True)
    extended = (*registry.entries(), broken)
    monkeypatch.setattr(registry, "entries", lambda: extended)
    (tmp_path / "train.py").write_bytes(SOURCE)
    (tmp_path / "other.py").write_text("x = 1\n")
    result = cli("check", "--select", "strict-load-state-dict,broken-import", ".")
    assert result.exit_code == 1
    assert result.stderr.count(": error: ") == 1 and "Traceback" not in result.stderr
    assert ("train.py: error: internal error: codemod broken-import cannot be loaded: "
            "ModuleNotFoundError:") in result.stderr


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


def test_editors_find_nodes_by_the_positions_libcst_gives(monkeypatch):
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
    settings = EngineSettings(codemods=("strict-load-state-dict",), unsafe_fixes=True)
    fast = process_source(source.encode(), Path("a.py"), settings)
    # The same, with libcst's PositionProvider over the whole module.
    monkeypatch.setattr(FocusedTransformer, "_position_in_statement", lambda self, node: None)
    full = process_source(source.encode(), Path("a.py"), settings)
    assert [(c.line, c.column) for c in fast.changes] == [(9, 18), (10, 22)]
    assert fast.output is not None and fast.output.count(b"strict=True") == 2
    assert (fast.changes, fast.output) == (full.changes, full.output)


def test_later_codemods_report_lines_of_the_file_as_read(with_codemods):
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


def test_editors_with_matcher_decorators_still_dispatch_through_libcst(with_codemods):
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


def test_a_recursion_error_on_a_deep_file_is_reported_as_too_deep(tmp_path, cli, with_codemods):
    # Deep enough for any recursive walk to fail, shallow enough for CPython to parse.
    with_codemods(RecursesForever)
    target = tmp_path / "deep.py"
    source = ("x = a" + ".b" * 400 + "\nreturn_value = 41\n").encode()
    target.write_bytes(source)
    result = cli("check", "--no-cache", "--select", "recurses-forever", ".")
    assert result.exit_code == 1
    assert "deep.py: error: too deeply nested for the parser; skipped" in result.stderr
