"""Every node of CPython's tree of a file, walked once and shared by all codemods.

Each codemod looks for its candidates in the whole tree (`candidate_lines`), and several
gather facts from it again when they run. `ast.walk` costs about as much per file as
CPython's parse itself, so the walk of the file being processed is made once, kept, and
indexed by node type. Only the last module asked about is kept: the engine works on one
file at a time. `per_tree` keeps other per-file facts the same way.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Sequence
from typing import TypeVar

NodeT = TypeVar("NodeT", bound=ast.AST)
T = TypeVar("T")

_memos: list[list[tuple[ast.Module, object]]] = []


def per_tree(compute: Callable[[ast.Module], T]) -> Callable[[ast.Module], T]:
    """`compute(tree)`, remembered for the last tree it was asked about.

    The engine asks a codemod about the same tree more than once (its candidates, then
    its findings or its rewrite), and works on one file at a time.
    """
    last: list[tuple[ast.Module, T]] = []
    _memos.append(last)  # type: ignore[arg-type]

    @functools.wraps(compute)
    def remembered(tree: ast.Module) -> T:
        if not last or last[0][0] is not tree:
            last[:] = [(tree, compute(tree))]
        return last[0][1]

    return remembered


def forget_trees() -> None:
    """Drop what `per_tree` remembers: once a file's result is made, a worker process
    keeps nothing of it (the tree of a large file is hundreds of megabytes)."""
    for last in _memos:
        last.clear()


class _Index:
    def __init__(self, tree: ast.AST) -> None:
        self.nodes = _walk(tree)
        self.by_type: dict[type, list[ast.AST]] = {}
        for node in self.nodes:
            self.by_type.setdefault(type(node), []).append(node)


def walk(tree: ast.AST) -> Sequence[ast.AST]:
    """The nodes of `tree`, in the order `ast.walk` yields them, less the operator and
    context singletons (`ast.Load`, `ast.Add`: read them off their parents)."""
    if isinstance(tree, ast.Module):
        return _index(tree).nodes
    return _walk(tree)


def nodes_of(tree: ast.Module, kind: type[NodeT]) -> Sequence[NodeT]:
    """The nodes of `tree` of exactly this type, in the order `ast.walk` yields them
    (never an operator or context singleton)."""
    return _index(tree).by_type.get(kind, [])  # type: ignore[return-value]


_index = per_tree(_Index)


# Fields whose values are shared singletons (`Load`, `Add`, `Eq`, ...): no codemod looks
# for them in a walk (they are read off their parent: `node.ctx`, `node.op`), and there
# are about as many of them as of all other nodes.
_SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _walk(tree: ast.AST) -> list[ast.AST]:
    # ast.walk's order (breadth first, fields in order) without its generator overhead,
    # and without the singleton operator and context nodes.
    nodes = [tree]
    append = nodes.append
    node_type = ast.AST
    child_fields = _CHILD_FIELDS
    for node in nodes:
        kind = type(node)
        fields = child_fields.get(kind)
        if fields is None:
            fields = child_fields[kind] = tuple(
                name for name in kind._fields if name not in _SINGLETON_FIELDS)
        for name in fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, node_type):
                        append(item)
            elif isinstance(value, node_type):
                append(value)
    return nodes
