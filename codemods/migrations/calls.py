"""Shared pieces of the call migrations: finding calls of a torch function through any
alias or import, writing a call's arguments back, and the torch floor."""

from __future__ import annotations

import ast
from collections.abc import Iterable

from torchfix.model.semantic import BindingKind
from torchfix.rewrite.contract import FileContext, RemoveImport

from ..prefilter import torch_calls
from ..spelling import Spelling, refer, without_module_import


def calls_named(tree: ast.Module, names: Iterable[str]) -> list[ast.Call]:
    """Calls whose function is written `<torch alias>...name` or `name` imported from torch
    (a cheap first look, before the semantic model says what they are)."""
    return torch_calls(tree, tuple(names))


def plain(call: ast.Call) -> bool:
    """No `*args` / `**kwargs`: every argument is visible."""
    return not any(isinstance(a, ast.Starred) for a in call.args) and all(
        k.arg is not None for k in call.keywords)


def too_new(file: FileContext, since: tuple[int, int], what: str) -> str | None:
    """Why the fix is reported rather than offered: the project supports an older torch
    than `what` needs, or, declaring none, was made for one (`FileContext.era_predates`)."""
    floor = file.min_torch()
    if floor is None:
        return file.era_predates(since, what)
    if floor >= since:
        return None
    return (f"{what} needs torch >= {since[0]}.{since[1]}, and the project supports torch "
            f"{floor[0]}.{floor[1]}")


def spell_function(file: FileContext, call: ast.Call, qualified: str, *,
                   from_import: bool = False, module_import: str | None = None,
                   prefer_from_import: bool = False) -> Spelling | None:
    """`qualified` written where `call.func` is, through the same alias; the import the
    old name came through (`from m import f`, or `import torch` when the new spelling
    does not go through it) is dropped once nothing uses it."""
    func = call.func if isinstance(call.func, (ast.Attribute, ast.Name)) else None
    spelled = refer(file, call, qualified, via=func if isinstance(func, ast.Attribute) else None,
                    from_import=from_import, module_import=module_import,
                    prefer_from_import=prefer_from_import)
    if spelled is None or func is None:
        return spelled
    if isinstance(func, ast.Attribute):
        return without_module_import(file, func, spelled)
    binding = file.semantic.binding(func)
    statement = binding.statement if binding is not None else None
    if (binding is None or binding.kind is not BindingKind.FROM_IMPORT
            or not isinstance(statement, ast.ImportFrom) or not statement.module
            or statement.level):
        return spelled
    alias = binding.node
    drop = RemoveImport(statement.module, alias.name, alias.asname)  # type: ignore[attr-defined]
    return Spelling(spelled.text, (*spelled.imports, drop))
