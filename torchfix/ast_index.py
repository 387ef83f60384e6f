"""Every node of CPython's tree of a file, walked once and shared by all codemods.

Each codemod looks for its candidates in the whole tree (`candidate_lines`), and several
gather facts from it again when they run. `ast.walk` costs about as much per file as
CPython's parse itself, so the walk of the file being processed is made once, kept, and
indexed by node type. Only the last module asked about is kept: the engine works on one
file at a time.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TypeVar

NodeT = TypeVar("NodeT", bound=ast.AST)


class _Index:
    def __init__(self, tree: ast.AST) -> None:
        self.tree = tree
        self.nodes = _walk(tree)
        self.by_type: dict[type, list[ast.AST]] = {}
        for node in self.nodes:
            self.by_type.setdefault(type(node), []).append(node)


_last: _Index | None = None


def walk(tree: ast.AST) -> Sequence[ast.AST]:
    """The nodes of `tree`, in the order `ast.walk` yields them."""
    if isinstance(tree, ast.Module):
        return _index(tree).nodes
    return _walk(tree)


def nodes_of(tree: ast.Module, kind: type[NodeT]) -> Sequence[NodeT]:
    """The nodes of `tree` of exactly this type, in the order `ast.walk` yields them."""
    return _index(tree).by_type.get(kind, [])  # type: ignore[return-value]


def _index(tree: ast.Module) -> _Index:
    global _last
    if _last is None or _last.tree is not tree:
        _last = _Index(tree)
    return _last


def _walk(tree: ast.AST) -> list[ast.AST]:
    # ast.walk's order (breadth first, fields in order) without its generator overhead.
    nodes = [tree]
    append = nodes.append
    node_type = ast.AST
    for node in nodes:
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, node_type):
                        append(item)
            elif isinstance(value, node_type):
                append(value)
    return nodes
