"""A cheap first look shared by codemods: which names of a file come from which package.

`candidate_lines` runs on every file whose bytes match a trigger, before any semantic
model exists. Asking "is `x.norm(...)` torch's?" through the model would build it for
every file that calls a method named `norm`; the imports answer most of it for a
fraction of the cost: a call can only reach `torch.norm` through a name an import (or a
plain alias of one, `t = torch`) bound to something from torch. The model still decides;
this only says where it need not be asked.
"""

from __future__ import annotations

import ast
from collections.abc import Collection

from torchfix.model.ast_index import nodes_of, per_tree


@per_tree
def import_paths(tree: ast.Module) -> dict[str, str]:
    """Name bound by an import anywhere in the file → what it imports: `import torch as th`
    gives th → torch, `from torch.nn import functional as F` gives F →
    torch.nn.functional, `import torch.nn` gives torch → torch; and `t = torch` gives t →
    torch. (Where a name is bound more than once, one of them: a first look only.)"""
    paths: dict[str, str] = {}
    for node in nodes_of(tree, ast.Import):
        for alias in node.names:
            if alias.asname:
                paths[alias.asname] = alias.name
            else:
                top = alias.name.split(".")[0]
                paths[top] = top
    for node in nodes_of(tree, ast.ImportFrom):
        if node.level or not node.module:
            continue
        for alias in node.names:
            if alias.name != "*":
                paths[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in nodes_of(tree, ast.Assign):  # t = torch
        if (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Name) and node.value.id in paths):
            paths.setdefault(node.targets[0].id, paths[node.value.id])
    return paths


def import_roots(tree: ast.Module) -> dict[str, str]:
    """Name bound by an import → the top package it comes from (th → torch)."""
    return _roots(tree)


@per_tree
def _roots(tree: ast.Module) -> dict[str, str]:
    return {name: path.split(".")[0] for name, path in import_paths(tree).items()}


def guess(tree: ast.Module, expr: ast.expr) -> str | None:
    """What the name chain `expr` names if its first name means what the file imports it
    as: `th.linalg.solve` → "torch.linalg.solve". The semantic model has the last word;
    this says where it need not be asked."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    path = import_paths(tree).get(expr.id)
    if path is None:
        return None
    return ".".join([path, *reversed(parts)])


def root(expr: ast.expr) -> str | None:
    """The name an attribute chain starts from: `torch.nn.functional.relu` → "torch"."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def from_package(tree: ast.Module, expr: ast.expr, packages: Collection[str]) -> bool:
    """Whether the name chain `expr` may reach one of these packages (by its imports)."""
    name = root(expr)
    return name is not None and import_roots(tree).get(name) in packages


TORCH = frozenset({"torch"})


@per_tree
def calls_by_name(tree: ast.Module) -> dict[str, list[ast.Call]]:
    """The file's calls by the last name of their function (`x.load(...)` under "load",
    `load(...)` too), found once for every codemod that looks for calls by name."""
    index: dict[str, list[ast.Call]] = {}
    for call in nodes_of(tree, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute):
            index.setdefault(func.attr, []).append(call)
        elif isinstance(func, ast.Name):
            index.setdefault(func.id, []).append(call)
    return index


@per_tree
def attributes_by_name(tree: ast.Module) -> dict[str, list[ast.Attribute]]:
    """The file's attribute nodes by attribute name, found once."""
    index: dict[str, list[ast.Attribute]] = {}
    for node in nodes_of(tree, ast.Attribute):
        index.setdefault(node.attr, []).append(node)
    return index


def torch_calls(tree: ast.Module, names: Collection[str],
                packages: Collection[str] = TORCH) -> list[ast.Call]:
    """Calls of one of these names whose function may come from these packages, in the
    order they appear in the file."""
    index = calls_by_name(tree)
    found = [call for name in names for call in index.get(name, ())
             if from_package(tree, call.func, packages)]
    if len(names) > 1:
        found.sort(key=lambda call: (call.lineno, call.col_offset))
    return found
