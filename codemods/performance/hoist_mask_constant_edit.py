"""hoist-mask-constant's changes, made with libcst from the findings `check()` decided.

Fill operands and uses are replaced with the shared `ReplaceNode` edit (the text of the
constant as written); this editor adds what the primitives cannot do: remove a local's
statement (`DropStatement`: its comments and blank lines stay with the statement after
it), put the hoisted constants after the module's imports (`HoistConstant`), and join a
fill call laid out over lines that fits on one line once edited (`JoinCall`).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst
import libcst.matchers as m
from libcst.codemod import CodemodContext

from torchfix.rewrite.contract import Span
from torchfix.rewrite.editing import EditError, EditSettings, PrimitiveEditor
from torchfix.rewrite.edits import one_line_call
from torchfix.rewrite.transformer import TransformerSettings

from .hoist_mask_constant import DropStatement, HoistConstant, JoinCall


class HoistMaskConstantEditor(PrimitiveEditor):
    """The shared primitives, plus removed statements and hoisted module constants."""

    def __init__(self, context: CodemodContext, settings: TransformerSettings,
                 edit: EditSettings) -> None:
        super().__init__(context, settings, edit)
        # Statements to remove, by the span of their assignment.
        self._drops: dict[Span, int] = {}
        constants: dict[str, HoistConstant] = {}
        # Fill calls over lines that fit on one line once edited, by span.
        self._joins: set[Span] = set()
        for finding in edit.findings:
            if isinstance(finding.data, JoinCall):
                self._joins.add(self.file.span(finding.data.call))
            elif isinstance(finding.data, DropStatement):
                span = self.file.span(finding.node)
                self._drops[span] = self._drops.get(span, 0) + 1
            elif isinstance(finding.data, HoistConstant):
                constants.setdefault(finding.data.name, finding.data)
        self._constants = sorted(constants.values(), key=lambda constant: constant.order)
        # Statements to remove once their block is left, by id (the values keep them alive,
        # so that no other node can get the same id meanwhile).
        self._dropped: dict[int, cst.CSTNode] = {}

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if self._joins and self.span_of(original_node) in self._joins:
            self._joins.discard(self.span_of(original_node))
            return one_line_call(updated_node)
        return updated_node

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if not self._drops or len(original_node.body) != 1 or not isinstance(
                original_node.body[0], cst.Assign):
            return updated_node
        span = self.span_of(original_node.body[0])
        if span in self._drops:
            del self._drops[span]
            self._dropped[id(updated_node)] = updated_node
        return updated_node

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        if not self._dropped or not any(id(s) in self._dropped for s in updated_node.body):
            return updated_node
        if all(id(s) in self._dropped for s in updated_node.body):
            raise EditError("a block would lose every statement")
        return _without(updated_node, self._dropped)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self._drops or self._dropped:
            raise EditError("a statement to remove was not found")
        if not self._constants:
            return updated_node
        statements = [
            cst.parse_statement(f"{constant.name} = {constant.value}\n")
            for constant in self._constants
        ]
        return _insert_after_imports(updated_node, statements)  # type: ignore[arg-type]


def _without(block: cst.IndentedBlock, dropped: dict[int, cst.CSTNode]) -> cst.IndentedBlock:
    """The block without the statements in `dropped` (which this removes from it)."""
    body: list[cst.BaseStatement] = []
    carried: list[cst.EmptyLine] | None = None  # None: nothing was dropped just before
    for statement in block.body:
        if dropped.pop(id(statement), None) is not None:
            # Its comments and blank lines stay, above the statement that follows.
            carried = [*(carried or []), *statement.leading_lines]  # type: ignore[union-attr]
            continue
        if carried is not None:
            lines = _merged(carried, list(statement.leading_lines))  # type: ignore[union-attr]
            if not body:
                # Now first in its block: blank lines would open the block.
                while lines and lines[0].comment is None:
                    lines.pop(0)
            statement = statement.with_changes(leading_lines=lines)
            carried = None
        body.append(statement)
    return block.with_changes(body=body)


def _merged(first: list[cst.EmptyLine], second: list[cst.EmptyLine]) -> list[cst.EmptyLine]:
    """Both lists of lines, with no more blank lines in a row than either had."""
    def longest_run(lines: list[cst.EmptyLine]) -> int:
        longest = run = 0
        for line in lines:
            run = run + 1 if line.comment is None else 0
            longest = max(longest, run)
        return longest

    limit = max(longest_run(first), longest_run(second))
    merged: list[cst.EmptyLine] = []
    run = 0
    for line in [*first, *second]:
        run = run + 1 if line.comment is None else 0
        if run <= limit:
            merged.append(line)
    return merged


def _insert_after_imports(
    module: cst.Module, constants: Sequence[cst.SimpleStatementLine]
) -> cst.Module:
    constants = list(constants)
    body = list(module.body)
    index = 0
    for position, statement in enumerate(body):
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            break
        if _is_header(statement, first=position == 0):
            index = position + 1
    if index > 0:
        constants[0] = constants[0].with_changes(leading_lines=[cst.EmptyLine()])
    if index < len(body) and not body[index].leading_lines:
        blank_lines = 2 if isinstance(body[index], (cst.FunctionDef, cst.ClassDef)) else 1
        body[index] = body[index].with_changes(
            leading_lines=[cst.EmptyLine() for _ in range(blank_lines)]
        )
    return module.with_changes(body=[*body[:index], *constants, *body[index:]])


def _is_header(statement: cst.BaseStatement, *, first: bool) -> bool:
    """An import, or the module docstring."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    if all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body):
        return True
    return first and m.matches(statement, m.SimpleStatementLine(
        body=[m.Expr(value=m.SimpleString() | m.ConcatenatedString())]))
