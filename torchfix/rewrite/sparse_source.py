"""The part of a file that `check` needs libcst to parse: the statements holding candidates.

libcst parses about ten times slower than CPython, and `check` only needs the findings.
Every codemod already names, from CPython's parse, the lines where it may act and the
lines it must see to decide (`TorchfixCodemod.candidate_lines`). So `check` hands libcst
the top-level statements holding such a line, and inside a class only the header and the
members holding one. Whole lines are cut, so columns stay those of the file, and the cut
keeps the file's number of each line it holds, so positions can be given in the file.

Blanking the other lines instead would keep line numbers for free, but libcst turns every
blank line into three nodes that it builds and visitors walk: as costly as the code.
"""

from __future__ import annotations

import ast
import bisect
import copy
import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from torchfix.rewrite.statement_lines import LineSpan


@dataclass(frozen=True)
class SparseSource:
    text: str  # the lines of the kept statements, in order
    line_numbers: tuple[int, ...]  # the file's number of each line of `text`
    # CPython's tree cut the same way, to pair with libcst's (see statement_lines).
    tree: ast.Module


@dataclass
class _Unit:
    """A top-level statement or class member that is kept or blanked as a whole."""

    node: ast.stmt
    span: LineSpan
    kept: bool = False
    members: list[_Unit] | None = None  # for a class that can be cut: its members
    header: LineSpan | None = None  # for such a class: its decorators and `class` line(s)


def sparse_source(text: str, tree: ast.Module, lines: Collection[int]) -> SparseSource | None:
    """`text` (which CPython parsed into `tree`) cut down to the statements holding `lines`.

    None when nothing could be dropped, or when the file ends lines with a lone carriage
    return (its line numbering would need more care than it is worth).
    """
    if text.count("\r") != text.count("\r\n"):
        return None
    candidates = sorted(set(lines))
    units = [_unit(node, candidates) for node in tree.body]
    _keep_overlapping(units)
    if all(unit.kept and unit.members is None for unit in units):
        return None
    kept_spans: list[LineSpan] = []
    body: list[ast.stmt] = []
    for unit in units:
        if not unit.kept:
            continue
        if unit.members is None or unit.header is None:
            kept_spans.append(unit.span)
            body.append(unit.node)
            continue
        members = [member for member in unit.members if member.kept]
        kept_spans.append(unit.header)
        kept_spans.extend(member.span for member in members)
        cut_class = copy.copy(unit.node)
        cut_class.body = [member.node for member in members]  # type: ignore[attr-defined]
        body.append(cut_class)
    cut_text, line_numbers = _cut(text, kept_spans)
    return SparseSource(cut_text, line_numbers, ast.Module(body=body, type_ignores=[]))


def _unit(node: ast.stmt, candidates: Sequence[int]) -> _Unit:
    unit = _Unit(node, _span(node))
    unit.kept = _holds(unit.span, candidates)
    if not unit.kept or not isinstance(node, ast.ClassDef):
        return unit
    header_end = _span(node.body[0])[0] - 1
    if header_end < node.lineno:
        return unit  # `class A: x = 1`: body and header share a line
    members = [_Unit(member, _span(member)) for member in node.body]
    for member in members:
        member.kept = _holds(member.span, candidates)
    if any(member.kept for member in members):  # else the cut class would have no body
        unit.members = members
        unit.header = (unit.span[0], header_end)
    return unit


def _keep_overlapping(units: list[_Unit]) -> None:
    """Keep every statement sharing a line with a kept one (`a = f(); b = 2`).

    Statements come in source order, so only neighbours can share a line: one pass each
    way carries "kept" along a chain of them.
    """
    for level in [units, *(unit.members for unit in units if unit.members is not None)]:
        neighbours = [
            (before, after) for before, after in itertools.pairwise(level)
            if before.span[1] >= after.span[0]
        ]
        for before, after in neighbours:
            after.kept = after.kept or before.kept
        for before, after in reversed(neighbours):
            before.kept = before.kept or after.kept


def _cut(text: str, spans: Sequence[LineSpan]) -> tuple[str, tuple[int, ...]]:
    lines = text.split("\n")
    # Statements sharing a line (`a = f(); b = 2`) are both kept: keep the line once.
    line_numbers = tuple(sorted(
        {number for first, last in spans for number in range(first, last + 1)}
    ))
    # Every line ends with a newline, also the file's last one if it had none.
    cut_text = "".join(lines[number - 1] + "\n" for number in line_numbers)
    return cut_text, line_numbers


def _span(node: ast.stmt) -> LineSpan:
    decorators = getattr(node, "decorator_list", ())
    first = min([node.lineno, *(decorator.lineno for decorator in decorators)])
    return first, node.end_lineno if node.end_lineno is not None else node.lineno


def _holds(span: LineSpan, candidates: Sequence[int]) -> bool:
    index = bisect.bisect_left(candidates, span[0])
    return index < len(candidates) and candidates[index] <= span[1]
