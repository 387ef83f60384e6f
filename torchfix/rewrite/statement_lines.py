"""The line span of every libcst statement, read off CPython's parse of the same source.

libcst computes positions by generating code for the whole tree, which costs about as
much as parsing it. CPython's own `ast` carries line numbers for free and parses ten
times faster. Both parsers see the same statements in the same order, so walking the two
trees side by side gives each libcst statement its lines. Codemods use this to visit only
the statements holding their changes (see `torchfix.rewrite.transformer.Focus`).

If the two trees ever disagree, the walk gives up and every statement is visited.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

import libcst as cst

LineSpan = tuple[int, int]  # first and last line, 1-based, inclusive


class _Mismatch(Exception):
    pass


def statement_lines(module: cst.Module, tree: ast.Module) -> dict[cst.CSTNode, LineSpan] | None:
    """Map each libcst statement of `module` to its lines; None if the trees disagree."""
    spans: dict[cst.CSTNode, LineSpan] = {}
    try:
        _pair_bodies(module.body, tree.body, spans)
    except _Mismatch:
        return None
    return spans


def _pair_bodies(
    statements: Sequence[cst.BaseStatement],
    nodes: Sequence[ast.stmt],
    spans: dict[cst.CSTNode, LineSpan],
) -> None:
    index = 0
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            # `a = 1; b = 2` is one libcst line holding two small statements.
            count = len(statement.body)
            group = nodes[index : index + count]
            if len(group) != count:
                raise _Mismatch
            spans[statement] = (group[0].lineno, _end(group[-1]))
            index += count
        else:
            if index >= len(nodes):
                raise _Mismatch
            _pair_compound(statement, nodes[index], spans)
            index += 1
    if index != len(nodes):
        raise _Mismatch


def _pair_compound(
    statement: cst.BaseStatement, node: ast.stmt, spans: dict[cst.CSTNode, LineSpan]
) -> None:
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(decorator.lineno for decorator in decorators)])
    spans[statement] = (first, _end(node))
    if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
        _expect(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        _pair_block(statement.body, node.body, spans)  # type: ignore[attr-defined]
    elif isinstance(statement, cst.If):
        _expect(node, ast.If)
        _pair_block(statement.body, node.body, spans)  # type: ignore[attr-defined]
        _pair_else(statement.orelse, node.orelse, spans)  # type: ignore[attr-defined]
    elif isinstance(statement, (cst.For, cst.While)):
        _expect(node, (ast.For, ast.AsyncFor, ast.While))
        _pair_block(statement.body, node.body, spans)  # type: ignore[attr-defined]
        _pair_else(statement.orelse, node.orelse, spans)  # type: ignore[attr-defined]
    elif isinstance(statement, cst.With):
        _expect(node, (ast.With, ast.AsyncWith))
        _pair_block(statement.body, node.body, spans)  # type: ignore[attr-defined]
    elif isinstance(statement, (cst.Try, cst.TryStar)):
        _expect(node, (ast.Try, *_optional_ast("TryStar")))
        _pair_block(statement.body, node.body, spans)  # type: ignore[attr-defined]
        handlers = node.handlers  # type: ignore[attr-defined]
        if len(statement.handlers) != len(handlers):
            raise _Mismatch
        for handler, ast_handler in zip(statement.handlers, handlers, strict=True):
            _pair_block(handler.body, ast_handler.body, spans)
        _pair_else(statement.orelse, node.orelse, spans)  # type: ignore[attr-defined]
        if statement.finalbody is not None:
            _pair_block(statement.finalbody.body, node.finalbody, spans)  # type: ignore[attr-defined]
    elif isinstance(statement, cst.Match):
        _expect(node, _optional_ast("Match"))
        cases = node.cases  # type: ignore[attr-defined]
        if len(statement.cases) != len(cases):
            raise _Mismatch
        for case, ast_case in zip(statement.cases, cases, strict=True):
            _pair_block(case.body, ast_case.body, spans)
    else:
        raise _Mismatch


def _pair_block(
    block: cst.BaseSuite, nodes: Sequence[ast.stmt], spans: dict[cst.CSTNode, LineSpan]
) -> None:
    # A one-line suite (`if x: return y`) holds small statements, which are never
    # visited on their own: its compound statement already has a span.
    if isinstance(block, cst.IndentedBlock):
        _pair_bodies(block.body, nodes, spans)


def _pair_else(
    orelse: cst.If | cst.Else | None,
    nodes: Sequence[ast.stmt],
    spans: dict[cst.CSTNode, LineSpan],
) -> None:
    if orelse is None:
        if nodes:
            raise _Mismatch
    elif isinstance(orelse, cst.If):  # `elif`: CPython nests it as the only else-statement
        if len(nodes) != 1:
            raise _Mismatch
        _pair_compound(orelse, nodes[0], spans)
        # Not a statement of its own to libcst: written alone it would start with `if`,
        # not `elif`, and every column of its test would be 2 off. Its `if` (which has a
        # span) stands for it; its blocks' statements keep theirs.
        del spans[orelse]
    else:
        _pair_block(orelse.body, nodes, spans)


def _expect(node: ast.stmt, kinds: type | tuple[type, ...]) -> None:
    if not isinstance(node, kinds):
        raise _Mismatch


def _optional_ast(name: str) -> tuple[type, ...]:
    # ast.TryStar (3.11) and ast.Match (3.10) do not exist on every Python we support.
    kind = getattr(ast, name, None)
    return (kind,) if kind is not None else ()


def _end(node: ast.stmt) -> int:
    return node.end_lineno if node.end_lineno is not None else node.lineno
