"""A libcst transformer that visits only the statements holding changes, cheaply.

The base of every editor (`torchfix.rewrite.editing.Editor`). Two costs of libcst are
avoided: its matcher-aware dispatch (looked up by name for every node and field) for
editors that use no matcher decorators, and its PositionProvider (which generates code
for the whole module) by computing positions statement by statement. Statements that
hold no change (`Focus`) are not visited at all.
"""

from __future__ import annotations

import bisect
from collections.abc import Generator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import libcst as cst
from libcst.codemod import Codemod, CodemodContext, VisitorBasedCodemodCommand
from libcst.matchers._decorators import (
    CONSTRUCTED_LEAVE_MATCHER_ATTR,
    CONSTRUCTED_VISIT_MATCHER_ATTR,
    VISIT_NEGATIVE_MATCHER_ATTR,
    VISIT_POSITIVE_MATCHER_ATTR,
)
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from torchfix.rewrite.statement_lines import LineSpan
from torchfix.rewrite.suppressions import Suppressions

# What libcst's matcher decorators (@visit, @leave, @call_if_inside, ...) set on a method.
_MATCHER_DECORATOR_ATTRIBUTES = (
    CONSTRUCTED_VISIT_MATCHER_ATTR,
    CONSTRUCTED_LEAVE_MATCHER_ATTR,
    VISIT_POSITIVE_MATCHER_ATTR,
    VISIT_NEGATIVE_MATCHER_ATTR,
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
class TransformerSettings:
    """What a transformer needs to know about the file it visits."""

    options: Mapping[str, Any] = field(default_factory=dict)
    suppressions: Suppressions = field(default_factory=Suppressions)
    # True when the tree comes straight from the parser, so every node is unique and the
    # defensive deep copy libcst makes before computing metadata can be skipped.
    fresh_tree: bool = False
    focus: Focus | None = None  # None: visit every statement


# Statement node types whose subtrees can be skipped when they hold no candidate line.
_STATEMENT_TYPES = frozenset(
    {
        cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While,
        cst.With, cst.Try, cst.TryStar, cst.Match,
    }
)


class FocusedTransformer(VisitorBasedCodemodCommand):
    """A libcst transformer over the focused statements, with cheap `position()`."""

    def __init__(self, context: CodemodContext,
                 settings: TransformerSettings | None = None) -> None:
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
        self.settings = settings or TransformerSettings()
        self._positions: Mapping[cst.CSTNode, CodeRange] | None = None
        self._statement_positions: dict[
            cst.CSTNode, tuple[Mapping[cst.CSTNode, CodeRange], int]
        ] = {}
        self._statements: list[cst.CSTNode] = []  # enclosing statements, innermost last
        self._indents: list[str | None] = []  # enclosing block indents (None: the default)
        self._case_indents: list[str | None] = []  # how each enclosing `match` indents cases
        self._plain: bool | None = None  # no matcher decorators: see _plain_dispatch()

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
        return self._positions[node]

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

    # -- libcst plumbing -----------------------------------------------------------------

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
