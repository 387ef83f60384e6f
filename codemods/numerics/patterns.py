"""Shared matching for the numerics codemods: torch calls of one tensor argument, the
literal 1, and the guard that keeps a rewrite from swallowing another one inside it."""

from __future__ import annotations

import ast

from torchfix.model.semantic import BindingKind
from torchfix.rewrite.contract import FileContext, RemoveImport

from ..prefilter import TORCH, from_package
from ..spelling import Spelling, refer


def is_one(file: FileContext, node: ast.expr) -> bool:
    """`1` or `1.0` (a bool is not one)."""
    return written_one(node)


def written_one(node: ast.expr) -> bool:
    """The literal `1` or `1.0` as written (no model needed)."""
    return (isinstance(node, ast.Constant) and type(node.value) in (int, float)
            and node.value == 1)


def torch_call(tree: ast.Module, node: ast.AST, name: str) -> bool:
    """A cheap look: `<torch alias>.name(x)` or `name(x)` imported from torch."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1):
        return False
    func = node.func
    named = (isinstance(func, ast.Attribute) and func.attr == name) or (
        isinstance(func, ast.Name) and func.id == name)
    return named and from_package(tree, func, TORCH)


def unary_torch_call(file: FileContext, node: ast.AST, function: str) -> ast.expr | None:
    """The argument of `torch.<function>(x)` (through any alias), None for anything else:
    other arguments (`out=`) or unpacking leave it alone."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords
            and not isinstance(node.args[0], ast.Starred)):
        return None
    if file.semantic.qualified_name(node.func) != f"torch.{function}":
        return None
    return node.args[0]


def holds_call(file: FileContext, node: ast.expr, functions: tuple[str, ...]) -> bool:
    """Whether `node` holds a call of one of these torch functions. A rewrite that replaces
    an expression by text made from its parts must not hold another rewrite's target, and
    the answer must not change once that one is made: the new names count too."""
    model = file.semantic
    wanted = {f"torch.{name}" for name in functions}
    return any(isinstance(inner, ast.Call) and model.qualified_name(inner.func) in wanted
               for inner in ast.walk(node))


def spell(file: FileContext, call: ast.Call, function: str) -> Spelling | None:
    """`torch.<function>` written the way the call reaches torch (`th.log` → `th.log1p`).
    A `from torch import log` the call went through is dropped once nothing uses it."""
    func = call.func if isinstance(call.func, (ast.Attribute, ast.Name)) else None
    spelled = refer(file, call, f"torch.{function}", via=func)
    if spelled is None or not isinstance(func, ast.Name):
        return spelled
    binding = file.semantic.binding(func)
    statement = binding.statement if binding is not None else None
    if binding is None or binding.kind is not BindingKind.FROM_IMPORT or not isinstance(
            statement, ast.ImportFrom) or not statement.module or statement.level:
        return spelled
    alias = binding.node
    drop = RemoveImport(statement.module, alias.name, alias.asname)  # type: ignore[attr-defined]
    return Spelling(spelled.text, (*spelled.imports, drop))
