"""atomic-save's libcst side: point references at the helper, add its imports and code.

Everything here was decided by `codemods.checkpoints.atomic_save.AtomicSave.check`: which
references change, the helper's name, where each import goes and the helper's code.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from torchfix.rewrite.contract import Finding, Span
from torchfix.rewrite.editing import EditError, Editor
from torchfix.rewrite.edits import file_quote, insert_imports, statement_indexes
from torchfix.rewrite.layout import LineSplit, indent_unit

from .atomic_save import HelperPlan, Rewrite, in_quotes

# The nodes a line is split at (`torchfix.rewrite.layout`): libcst's kind of each CPython one.
_SPLIT_NODES_BY_AST = {
    "Call": "Call", "Subscript": "Subscript", "Dict": "Dict", "List": "List", "Set": "Set",
    "ListComp": "ListComp", "SetComp": "SetComp", "DictComp": "DictComp",
}
_SPLIT_NODES = (cst.Call, cst.Subscript, cst.Dict, cst.List, cst.Set, cst.ListComp,
                cst.SetComp, cst.DictComp)


class AtomicSaveEditor(Editor):
    """Replaces calls' callees and value references by the helper; then, once per
    module, inserts the imports and the helper the plan names."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._names = {_node_name(f.node) for f in self.edit.findings}
        self._made: list[Rewrite] = []
        # Lines split because the helper's name made them too long: by the split node.
        self._layouts: dict[Span, LineSplit] = {
            self.file.span(f.data.layout.node): f.data.layout for f in self.edit.findings
            if isinstance(f.data, Rewrite) and f.data.layout is not None
        }

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        result = super().on_leave(original_node, updated_node)
        if not self._layouts or not isinstance(original_node, _SPLIT_NODES):
            return result
        span = self.span_of(original_node)
        layout = self._layouts.get(span)
        if layout is None or type(original_node).__name__ != _SPLIT_NODES_BY_AST.get(
                type(layout.node).__name__):
            return result
        del self._layouts[span]
        # The layout's text holds the renamed reference: the inner change, made already.
        new = cst.parse_expression(layout.code)
        if result.lpar and not new.lpar:
            new = new.with_changes(lpar=result.lpar, rpar=result.rpar)
        return new

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if _cst_name(original_node.func) not in self._names:
            return updated_node
        finding = self._rewrite_at(original_node)
        if finding is None:
            return updated_node
        return updated_node.with_changes(func=cst.Name(finding.data.plan.name))

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute
                        ) -> cst.BaseExpression:
        if original_node.attr.value != "save":
            return updated_node
        return self._value(original_node, updated_node)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name
                   ) -> cst.BaseExpression:
        if original_node.value not in self._names:
            return updated_node
        return self._value(original_node, updated_node)

    def _value(self, original: cst.BaseExpression, updated: cst.BaseExpression
               ) -> cst.BaseExpression:
        finding = self._rewrite_at(original)
        if finding is None:
            return updated
        return updated.with_changes(value=finding.data.plan.name) if isinstance(
            updated, cst.Name) else cst.Name(finding.data.plan.name, lpar=updated.lpar,
                                             rpar=updated.rpar)

    def _rewrite_at(self, node: cst.CSTNode) -> Finding | None:
        finding = self.finding_at(node)
        if finding is None or not isinstance(finding.data, Rewrite):
            return None
        self.done(finding)
        self._made.append(finding.data)
        return finding

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self._made:
            return updated_node
        plan = self._made[0].plan
        uses = [made.import_time for made in self._made if made.import_time is not None]
        limit = min(uses, default=len(self.file.tree.body))
        helper_at = max(anchor for anchor in plan.anchors if anchor <= limit)
        return _with_plan(original_node, updated_node, plan, helper_at, self.file.text,
                          indent_unit(self.file))


def _node_name(node: Any) -> str:
    """The name a finding's CPython node ends with (`torch.save` → save, `S(...)` → S)."""
    import ast

    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _cst_name(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return node.value if isinstance(node, cst.Name) else ""


# -- the module-level part of the plan --------------------------------------------------------


def _with_plan(original: cst.Module, updated: cst.Module, plan: HelperPlan,
               helper_at: int, text: str, indent: str) -> cst.Module:
    """`updated` with the plan's imports, then its helper before CPython's top-level
    statement `helper_at` (after the imports placed before that statement)."""
    indexes = statement_indexes(original)
    module, moved = insert_imports(updated, plan.imports, indexes)
    if plan.definition is None:
        return module
    line = indexes[helper_at - 1] + 1 if helper_at > 0 else 0  # after the line before it
    index = moved[line] if line < len(moved) else len(module.body)
    code = in_quotes(plan.definition, plan.quote or file_quote(text))
    return insert_helper(module, index, helper_definition(module, code, indent))


def helper_definition(module: cst.Module, code: str, indent: str) -> cst.FunctionDef:
    """The helper, indented by `indent`, the step most of the module's blocks take (libcst's
    `default_indent` is its first block's: a stray 3-space `try:` in nnunetv2's trainer)."""
    lines = []
    for line in code.splitlines():
        stripped = line.lstrip(" ")
        lines.append(indent * ((len(line) - len(stripped)) // 4) + stripped)
    text = module.default_newline.join(lines) + module.default_newline
    statement = cst.parse_statement(text, config=module.config_for_parsing)
    if not isinstance(statement, cst.FunctionDef):  # pragma: no cover - the template is one
        raise EditError("the helper template is not a function definition")
    if indent != module.default_indent:
        # A block whose `indent` is None is written with the module's default indent.
        statement = statement.visit(_ExplicitIndent(indent))
        assert isinstance(statement, cst.FunctionDef)
    return statement


class _ExplicitIndent(cst.CSTTransformer):
    """Gives every indented block the indent `indent` of its own."""

    def __init__(self, indent: str) -> None:
        super().__init__()
        self.indent = indent

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock,
                            updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        return updated_node.with_changes(indent=self.indent)


def insert_helper(module: cst.Module, index: int, helper: cst.FunctionDef) -> cst.Module:
    """Insert the helper before `module.body[index]`, two blank lines on either side."""
    body = list(module.body)
    blank = cst.EmptyLine()
    helper = helper.with_changes(leading_lines=[blank, blank] if index > 0 else [])
    if index < len(body):
        following = body[index]
        lines = list(following.leading_lines)
        leading_blanks = next(
            (i for i, line in enumerate(lines) if line.comment is not None), len(lines)
        )
        if leading_blanks < 2:
            lines[:0] = [blank] * (2 - leading_blanks)
            body[index] = following.with_changes(leading_lines=lines)
    body.insert(index, helper)
    return module.with_changes(body=body)
