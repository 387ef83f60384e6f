"""atomic-save's libcst side: point references at the helper, add its imports and code.

Everything here was decided by `codemods.checkpoints.atomic_save.AtomicSave.check`: which
references change, the helper's name, where each import goes and the helper's code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import libcst as cst

from codemods.checkpoints.atomic_save import HelperPlan, ImportInsertion, Rewrite
from torchfix.rewrite.contract import Finding
from torchfix.rewrite.editing import EditError, Editor


class AtomicSaveEditor(Editor):
    """Replaces calls' callees and value references by the helper; then, once per
    module, inserts the imports and the helper the plan names."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._names = {_node_name(f.node) for f in self.edit.findings}
        self._made: list[Rewrite] = []

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
        return _with_plan(original_node, updated_node, plan, helper_at)


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
               helper_at: int) -> cst.Module:
    """`updated` with the plan's imports and helper, placed by CPython's statement indexes
    (CPython counts `a; b` as two statements where libcst has one line)."""
    line_of: list[int] = []  # CPython's top-level statement → libcst's
    for index, statement in enumerate(original.body):
        count = len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        line_of += [index] * count
    body = list(updated.body)
    before: dict[int, list[ImportInsertion]] = {}
    after: dict[int, list[ImportInsertion]] = {}
    for insertion in plan.imports:
        if not 0 <= insertion.index < len(line_of):
            raise EditError(f"no top-level statement {insertion.index} to import beside")
        where = after if insertion.after else before
        where.setdefault(line_of[insertion.index], []).append(insertion)
    # The helper goes before CPython statement `helper_at`: after the line holding the one
    # before it.
    helper_line = line_of[helper_at - 1] + 1 if helper_at > 0 else 0

    new_body: list[cst.BaseStatement] = []
    helper_index = None
    for index, statement in enumerate(body):
        for insertion in before.get(index, ()):
            imports, statement = _before(updated, insertion, statement)
            new_body += imports
        if index == helper_line:
            helper_index = len(new_body)
        new_body.append(statement)
        for insertion in after.get(index, ()):
            new_body += _statements(updated, insertion.statements, insertion.new_group)
    if helper_index is None:
        helper_index = len(new_body)
    module = updated.with_changes(body=new_body)
    if plan.definition is None:
        return module
    return insert_helper(module, helper_index, helper_definition(module, plan.definition))


def _statements(module: cst.Module, lines: Sequence[str], new_group: bool
                ) -> list[cst.BaseStatement]:
    statements = [cst.parse_statement(line + module.default_newline,
                                      config=module.config_for_parsing) for line in lines]
    if new_group and statements:
        statements[0] = statements[0].with_changes(leading_lines=[cst.EmptyLine()])
    return statements


def _before(module: cst.Module, insertion: ImportInsertion, statement: cst.BaseStatement
            ) -> tuple[list[cst.BaseStatement], cst.BaseStatement]:
    """The imports to place before `statement`, and `statement` as it then is.

    Joining a group at its start, the imports take the blank lines and comments above
    it (they belong to the group). Starting a new group, they take only the blank lines
    before the first comment, and `statement` keeps its comments, one blank line above.
    """
    imports = _statements(module, insertion.statements, False)
    lines = list(statement.leading_lines)
    if insertion.new_group:
        blanks = next((i for i, line in enumerate(lines) if line.comment is not None),
                      len(lines))
        taken, kept = lines[:blanks], [cst.EmptyLine(), *lines[blanks:]]
    else:
        taken, kept = lines, []
    imports[0] = imports[0].with_changes(leading_lines=taken)
    return imports, statement.with_changes(leading_lines=kept)


def helper_definition(module: cst.Module, code: str) -> cst.FunctionDef:
    """The helper, indented the way this module indents."""
    indent = module.default_indent
    lines = []
    for line in code.splitlines():
        stripped = line.lstrip(" ")
        lines.append(indent * ((len(line) - len(stripped)) // 4) + stripped)
    text = module.default_newline.join(lines) + module.default_newline
    statement = cst.parse_statement(text, config=module.config_for_parsing)
    if not isinstance(statement, cst.FunctionDef):  # pragma: no cover - the template is one
        raise EditError("the helper template is not a function definition")
    return statement


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
