"""The codemod contract: what every module in `codemods/` declares, and how it records edits.

A codemod is a libcst `VisitorBasedCodemodCommand` that also declares a stable `name`,
a one-line `summary`, the byte strings it can act on (`triggers`) and its `options`.
Every edit goes through `fix()` (or `report()` for findings with no automatic fix), which
applies safety gating and suppression comments and records a `Change`, so that no codemod
has to know how its results are shown or written.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Callable, Collection, Generator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import libcst as cst
from libcst.codemod import Codemod, CodemodContext, VisitorBasedCodemodCommand
from libcst.matchers._decorators import (
    CONSTRUCTED_LEAVE_MATCHER_ATTR,
    CONSTRUCTED_VISIT_MATCHER_ATTR,
    VISIT_NEGATIVE_MATCHER_ATTR,
    VISIT_POSITIVE_MATCHER_ATTR,
)
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from torchfix.rewrite.contract import Change, Option, Safety, applies
from torchfix.rewrite.statement_lines import LineSpan
from torchfix.rewrite.suppressions import Suppressions

NodeT = TypeVar("NodeT", bound=cst.CSTNode)

# What libcst's matcher decorators (@visit, @leave, @call_if_inside, ...) set on a method.
_MATCHER_DECORATOR_ATTRIBUTES = (
    CONSTRUCTED_VISIT_MATCHER_ATTR,
    CONSTRUCTED_LEAVE_MATCHER_ATTR,
    VISIT_POSITIVE_MATCHER_ATTR,
    VISIT_NEGATIVE_MATCHER_ATTR,
)


@dataclass(frozen=True)
class Finding:
    """A change decided on CPython's tree alone (see `TorchfixCodemod.findings`)."""

    node: ast.stmt | ast.expr  # the node the change is made to: it locates the change
    message: str
    safety: Safety

    def change(
        self, codemod: str, lines: Sequence[str], unsafe_fixes: bool, suppressions: Suppressions
    ) -> Change | None:
        """The Change that `fix()` or `report()` records for it; None where suppressed."""
        node = self.node
        if suppressions and suppressions.suppresses(
            codemod, node.lineno, node.end_lineno or node.lineno
        ):
            return None
        end_line = node.end_lineno or node.lineno
        end_offset = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        return Change(codemod, node.lineno, _characters(lines, node.lineno, node.col_offset) + 1,
                      self.message, self.safety, applies(self.safety, unsafe_fixes),
                      end_line, _characters(lines, end_line, end_offset) + 1)


def _characters(lines: Sequence[str], line_number: int, byte_offset: int) -> int:
    """CPython counts columns in UTF-8 bytes, libcst (and so every Change) in characters."""
    line = lines[line_number - 1] if line_number <= len(lines) else ""
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))


def position_in_file(position: CodeRange, line_numbers: Sequence[int]) -> CodeRange:
    """A position in code cut out of a file, as a position in the file.

    `line_numbers` holds the file's number of each line of the cut code. The end of the
    cut (a module's end, one past its last line) maps past the last line it holds.
    """
    def line_in_file(line: int) -> int:
        if line <= len(line_numbers):
            return line_numbers[line - 1]
        return line_numbers[-1] + line - len(line_numbers)

    return CodeRange(
        (line_in_file(position.start.line), position.start.column),
        (line_in_file(position.end.line), position.end.column),
    )


@dataclass(frozen=True)
class Focus:
    """The statements of a file a codemod needs to visit: those holding a candidate line."""

    spans: Mapping[cst.CSTNode, LineSpan]
    lines: tuple[int, ...]  # sorted

    def covers(self, statement: cst.CSTNode) -> bool:
        span = self.spans.get(statement)
        if span is None:
            return True  # not a statement we know the lines of: look inside
        index = bisect.bisect_left(self.lines, span[0])
        return index < len(self.lines) and self.lines[index] <= span[1]


@dataclass(frozen=True)
class CodemodSettings:
    """What a codemod instance needs to know about the current run and file."""

    unsafe_fixes: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    suppressions: Suppressions = field(default_factory=Suppressions)
    # True when the tree comes straight from the parser, so every node is unique and the
    # defensive deep copy libcst makes before computing metadata can be skipped.
    fresh_tree: bool = False
    focus: Focus | None = None  # None: visit every statement
    # CPython's parse of the same text, for facts that are cheaper to read there (class
    # bases, assignments); None when this Python cannot parse the file.
    python_tree: ast.Module | None = None
    # Only the changes are wanted, not the new text (`check`).
    findings_only: bool = False
    # When the tree holds only some lines of the file (torchfix.rewrite.sparse_source): the file's
    # number of each line of the tree's code.
    line_numbers: Sequence[int] | None = None


# Statement node types whose subtrees can be skipped when they hold no candidate line.
_STATEMENT_TYPES = frozenset(
    {
        cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While,
        cst.With, cst.Try, cst.TryStar, cst.Match,
    }
)


class TorchfixCodemod(VisitorBasedCodemodCommand):
    """Base class of every torchfix codemod. Subclasses set the class attributes below."""

    name: ClassVar[str]
    summary: ClassVar[str]
    triggers: ClassVar[tuple[bytes, ...]]
    # What `torchfix list` shows: "safe", "unsafe" or "safe, unsafe".
    fix_safety: ClassVar[str] = "safe"
    enabled_by_default: ClassVar[bool] = True
    # Whether the codemod reads libcst nodes beyond its candidate lines (the file's quote
    # style, say). If not, `check` may give it a tree of only the statements holding its
    # candidates (see torchfix.rewrite.sparse_source).
    reads_whole_file: ClassVar[bool] = False
    options: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        if type(self)._uses_matcher_decorators:
            super().__init__(context)
        else:
            # libcst's constructor scans every attribute of the instance (twice) for matcher
            # decorators: ~10 ms, paid per codemod per file. A class without any needs none
            # of what it gathers, so set up the same empty state directly.
            Codemod.__init__(self, context)
            cst.CSTTransformer.__init__(self)
            self._matchers = {}
            self._extra_visit_funcs = {}
            self._extra_leave_funcs = {}
        self.settings = settings or CodemodSettings()
        self.changes: list[Change] = []
        self._positions: Mapping[cst.CSTNode, CodeRange] | None = None
        self._statement_positions: dict[
            cst.CSTNode, tuple[Mapping[cst.CSTNode, CodeRange], int]
        ] = {}
        self._statements: list[cst.CSTNode] = []  # enclosing statements, innermost last
        self._indents: list[str | None] = []  # enclosing block indents (None: the default)
        self._case_indents: list[str | None] = []  # how each enclosing `match` indents cases
        self._plain: bool | None = None  # no matcher decorators: see _plain_dispatch()

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        """Whether this codemod never acts on the file at `path` (test files, say).

        Asked before the file is read into any parser, so a file that only such codemods
        could touch costs nothing. The default acts everywhere.
        """
        del path
        return False

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> Collection[int] | None:
        """The lines where this codemod may act, found in CPython's (much faster) parse.

        Runs after the byte `triggers` matched and before libcst parses the file. An
        empty result means the file does not need this codemod, and libcst never parses
        it for this codemod; otherwise only the statements that contain one of these
        lines are visited (with their enclosing functions and classes). Return the line
        of each node the codemod may rewrite or report, plus any line whose code it must
        see to decide (e.g. an assignment it reads). None, the default, visits everything.

        In `check`, libcst may parse only the top-level statements (and, in classes, the
        members) holding a candidate line: the other statements are not in the tree at
        all, unless the codemod sets `reads_whole_file`.
        """
        del tree
        return None

    @classmethod
    def findings(cls, tree: ast.Module) -> Sequence[Finding] | None:
        """Every change this codemod makes to the file, when CPython's tree decides them all.

        `check` wants the changes, not the new text: a codemod that can list them here,
        each with the node, message and safety its rewrite records, spares `check` the
        libcst parse. The golden tests hold `check` to exactly what `apply` changes. None,
        the default: `check` runs the codemod on libcst's tree like `apply`.
        """
        del tree
        return None

    # -- traversal -----------------------------------------------------------------------
    #
    # libcst's matcher-aware dispatch looks up `visit_<Type>` and `visit_<Type>_<field>`
    # by name, and checks matcher decorators, for every node and every field of it: on a
    # file full of candidates that is most of the run. A codemod that uses no matcher
    # decorators gets the same dispatch from a per-class table instead.

    _dispatch: ClassVar[dict[tuple[str, type, str], Any]]
    _uses_matcher_decorators: ClassVar[bool] = True  # set per subclass
    _has_field_hooks: ClassVar[bool]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._dispatch = {}
        cls._uses_matcher_decorators = any(
            hasattr(getattr(cls, name, None), attribute)
            for name in dir(cls)
            for attribute in _MATCHER_DECORATOR_ATTRIBUTES
        )
        # libcst's base class defines every `visit_<Type>_<field>` as a no-op: only the ones
        # a codemod overrides count.
        cls._has_field_hooks = any(
            name.startswith(("visit_", "leave_"))
            and "_" in name.split("_", 1)[1]
            and getattr(cls, name) is not getattr(cst.CSTTransformer, name, None)
            for name in dir(cls)
            if callable(getattr(cls, name, None))
        )

    def _plain_dispatch(self) -> bool:
        if self._plain is None:
            self._plain = not (
                self._matchers or self._extra_visit_funcs or self._extra_leave_funcs
            )
        return self._plain

    def _hook(self, prefix: str, node_type: type, attribute: str = "") -> Any:
        """The codemod's own `<prefix>_<Type>[_<attribute>]` method; None if it has none."""
        key = (prefix, node_type, attribute)
        table = type(self)._dispatch
        if key not in table:
            name = f"{prefix}_{node_type.__name__}" + (f"_{attribute}" if attribute else "")
            hook = getattr(type(self), name, None)
            # libcst's own are no-ops (visit children, keep the node): skip the call.
            table[key] = None if hook is getattr(cst.CSTTransformer, name, None) else hook
        return table[key]

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if not self._plain_dispatch():
            super().on_visit_attribute(node, attribute)
        elif self._has_field_hooks:
            hook = self._hook("visit", type(node), attribute)
            if hook is not None:
                hook(self, node)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        if not self._plain_dispatch():
            super().on_leave_attribute(original_node, attribute)
        elif self._has_field_hooks:
            hook = self._hook("leave", type(original_node), attribute)
            if hook is not None:
                hook(self, original_node)

    def _dispatch_visit(self, node: cst.CSTNode) -> bool:
        if not self._plain_dispatch():
            return super().on_visit(node)
        hook = self._hook("visit", type(node))
        return hook is None or hook(self, node) is not False

    def _dispatch_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        if not self._plain_dispatch():
            return super().on_leave(original_node, updated_node)
        hook = self._hook("leave", type(original_node))
        return updated_node if hook is None else hook(self, original_node, updated_node)

    def on_visit(self, node: cst.CSTNode) -> bool:
        visit_children = self._dispatch_visit(node)
        node_type = type(node)
        if node_type in _STATEMENT_TYPES:
            focus = self.settings.focus
            if visit_children and focus is not None and not focus.covers(node):
                visit_children = False
            self._statements.append(node)
            if node_type is cst.Match:
                self._case_indents.append(node.indent)  # type: ignore[attr-defined]
        elif node_type is cst.IndentedBlock:
            self._indents.append(node.indent)  # type: ignore[attr-defined]
        elif node_type is cst.MatchCase:
            # `case` lines are a block of their own, indented by the `match` statement.
            self._indents.append(self._case_indents[-1])
        return visit_children

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        result = self._dispatch_leave(original_node, updated_node)
        node_type = type(original_node)
        if node_type in _STATEMENT_TYPES:
            self._statements.pop()
            if node_type is cst.Match:
                self._case_indents.pop()
        elif node_type is cst.IndentedBlock or node_type is cst.MatchCase:
            self._indents.pop()
        return result

    # -- options -------------------------------------------------------------------------

    @classmethod
    def option_defaults(cls) -> dict[str, Any]:
        return {option.name: option.default for option in cls.options}

    def option(self, name: str) -> Any:
        if name in self.settings.options:
            return self.settings.options[name]
        return self.option_defaults()[name]

    # -- recording edits -----------------------------------------------------------------

    def would_apply(self, node: cst.CSTNode, safety: Safety) -> bool:
        """Whether an edit of `node` with this safety is applied in this run."""
        return not self.is_suppressed(node) and applies(safety, self.settings.unsafe_fixes)

    def fix(
        self,
        original: cst.CSTNode,
        updated: NodeT,
        replacement: Any,
        message: str,
        safety: Safety = Safety.SAFE,
        on_apply: Callable[[], None] | None = None,
    ) -> Any:
        """Record a change and return `replacement` when it applies, else `updated`.

        `original` is the node as it appears in the tree being transformed (it locates the
        change and its suppression comments); `on_apply` runs only when the change is
        applied, e.g. to schedule the imports the replacement needs.
        """
        if self.is_suppressed(original):
            return updated
        applied = self.would_apply(original, safety)
        self._record(original, message, safety, applied)
        if not applied:
            return updated
        if on_apply is not None:
            on_apply()
        return replacement

    def report(self, node: cst.CSTNode, message: str) -> None:
        """Record a finding that has no automatic fix."""
        if not self.is_suppressed(node):
            self._record(node, message, Safety.MANUAL, applied=False)

    def is_suppressed(self, node: cst.CSTNode) -> bool:
        if not self.settings.suppressions:
            return False
        position = self.position(node)
        return self.settings.suppressions.suppresses(
            self.name, position.start.line, position.end.line
        )

    def position(self, node: cst.CSTNode) -> CodeRange:
        """Where `node` (of the tree being transformed) is in the file.

        libcst's PositionProvider generates code for the whole module, which costs as
        much as parsing it. When the statement around `node` has known lines, only that
        statement is generated, and its lines and indentation are added back.
        """
        local = self._position_in_statement(node)
        if local is not None:
            return local
        if self._positions is None:
            wrapper = self.context.wrapper
            if wrapper is None:
                raise RuntimeError("position() called outside transform_module()")
            self._positions = wrapper.resolve(PositionProvider)
        position = self._positions[node]
        if self.settings.line_numbers is None:
            return position
        return position_in_file(position, self.settings.line_numbers)

    def _position_in_statement(self, node: cst.CSTNode) -> CodeRange | None:
        focus = self.settings.focus
        wrapper = self.context.wrapper
        if focus is None or wrapper is None:
            return None
        for statement in reversed(self._statements):
            span = focus.spans.get(statement)
            if span is not None:
                break
        else:
            return None
        if statement not in self._statement_positions:
            # Alone, but inside as many blocks as enclose it in the file, so libcst writes
            # every line's indentation as the file has it: lines it indents (statement
            # lines, bracketed continuations) and lines it keeps verbatim (backslash
            # continuations) then both get their columns in the file.
            body: cst.CSTNode = statement
            for indent in reversed(self._indents):
                body = cst.If(test=cst.Name("x"),
                              body=cst.IndentedBlock(body=[body], indent=indent))  # type: ignore[list-item]
            alone = cst.Module(
                body=[body],  # type: ignore[list-item]
                default_indent=wrapper.module.default_indent,
                default_newline=wrapper.module.default_newline,
            )
            self._statement_positions[statement] = (
                MetadataWrapper(alone, unsafe_skip_copy=True).resolve(PositionProvider),
                len(self._indents),
            )
        positions, depth = self._statement_positions[statement]
        local = positions.get(node)
        if local is None:
            return None
        # The statement's code starts after the wrapping `if x:` lines and its own leading
        # blank and comment lines; in the file it starts at its first line.
        first_code_line = 1 + depth + len(getattr(statement, "leading_lines", ()))
        line_shift = span[0] - first_code_line
        return CodeRange(
            (local.start.line + line_shift, local.start.column),
            (local.end.line + line_shift, local.end.column),
        )

    def _record(self, node: cst.CSTNode, message: str, safety: Safety, applied: bool) -> None:
        position = self.position(node)
        start, end = position.start, position.end
        self.changes.append(
            Change(self.name, start.line, start.column + 1, message, safety, applied,
                   end.line, end.column + 1)
        )

    # -- libcst plumbing -----------------------------------------------------------------

    def transform_module(self, tree: cst.Module) -> cst.Module:
        if self.settings.findings_only:
            # libcst then adds and removes the imports the edits scheduled, walking the whole
            # module again: that changes the text, never the findings.
            return Codemod.transform_module(self, tree)
        return super().transform_module(tree)

    @contextmanager
    def _handle_metadata_reference(self, module: cst.Module) -> Generator[cst.Module, None, None]:
        # Same as libcst's, minus the deep copy of the whole tree when the tree is fresh
        # from the parser: the copy only guards against nodes shared between two places,
        # which a parsed tree never has, and it costs as much as parsing the file again.
        wrapper = MetadataWrapper(module, unsafe_skip_copy=self.settings.fresh_tree)
        old_context = self.context
        with self.resolve(wrapper):
            self.context = replace(self.context, wrapper=wrapper)
            try:
                yield wrapper.module
            finally:
                self.context = old_context
