"""The libcst side of `import_move.Move`: a codemod whose findings carry a `Move` (a
renamed import statement that sorts elsewhere in its block) uses this editor; findings
without one are the shared primitives' (torchvision-singleton-import, deprecated-api)."""

from __future__ import annotations

from typing import Any

import libcst as cst

from torchfix.rewrite.contract import Finding, Span
from torchfix.rewrite.editing import EditError, PrimitiveEditor
from torchfix.rewrite.import_move import Move


class ImportMoveEditor(PrimitiveEditor):
    """In-place replacements are shared primitives; a `Move` removes the old statement
    (its blank lines and comments above go to the statement after it) and puts the new
    one beside its anchor (a merge into the anchor is a primitive of the finding)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._moves: dict[Span, Finding] = {}
        self._anchors: dict[Span, Finding] = {}
        self._left: dict[int, int] = {}
        self._inherited: dict[Span, Any] = {}
        for finding in self.edit.findings:
            move = finding.data
            if isinstance(move, Move):
                self.made.discard(id(finding))  # not until the statement has moved
                self._moves[self.file.span(finding.node)] = finding
                if move.merged is None:
                    self._anchors[move.anchor] = finding
                self._left[id(finding)] = 1 if move.merged is not None else 2

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine) -> Any:
        if not self._moves or len(original_node.body) != 1 or not isinstance(
                original_node.body[0], (cst.Import, cst.ImportFrom)):
            return updated_node
        span = self.span_of(original_node.body[0])
        finding = self._moves.get(span)
        if finding is not None:
            move: Move = finding.data
            if move.heir is not None and original_node.leading_lines:
                self._inherited[move.heir] = original_node.leading_lines
            self._step(finding)
            return cst.RemovalSentinel.REMOVE
        result = updated_node
        lines = self._inherited.pop(span, None)
        if lines is not None and not result.leading_lines:
            result = result.with_changes(leading_lines=lines)
        anchored = self._anchors.get(span)
        if anchored is None:
            return result
        move = anchored.data
        new = cst.parse_statement(move.statement)
        self._step(anchored)
        if move.after:
            return cst.FlattenSentinel([result, new])
        return cst.FlattenSentinel([new.with_changes(leading_lines=result.leading_lines),
                                    result.with_changes(leading_lines=[])])

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if any(self._left.values()):
            raise EditError("could not move the new import statement where it was decided")
        return updated_node

    def _step(self, finding: Finding) -> None:
        self._left[id(finding)] -= 1
        if not self._left[id(finding)]:
            self.done(finding)
