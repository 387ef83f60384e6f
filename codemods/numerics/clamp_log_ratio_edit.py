"""clamp-log-ratio's edits: write the clamp `check()` decided, in the layout it chose.

`X.exp()` becomes `X.clamp(-B, B).exp()`; `torch.exp(X)` becomes
`torch.exp(torch.clamp(X, min=-B, max=B))`, on one line, or over lines the way black
lays out a call too long for its line. Comments and the layout around the clamp are kept.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from codemods.numerics.clamp_log_ratio import ClampFix, Layout
from torchfix.rewrite.contract import Finding, Span
from torchfix.rewrite.editing import EditError, Editor
from torchfix.rewrite.edits import keyword


class ClampLogRatioEditor(Editor):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._chains: dict[Span, Finding] = {}  # the chains of calls to lay out again

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        result: cst.BaseExpression = updated_node
        finding = self.finding_at(original_node)
        if finding is not None:
            fix = finding.data
            if not isinstance(fix, ClampFix):
                raise EditError(f"clamp-log-ratio: no clamp decided for {finding.message}")
            result = _clamped(updated_node, fix)
            if fix.chain is None:
                self.done(finding)
            else:
                self._chains[self.file.span(fix.chain)] = finding
        return self._laid_out(original_node, result)

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        return self._laid_out(original_node, updated_node)

    def leave_Subscript(
        self, original_node: cst.Subscript, updated_node: cst.Subscript
    ) -> cst.BaseExpression:
        return self._laid_out(original_node, updated_node)

    def _laid_out(self, original_node: cst.CSTNode, node: cst.BaseExpression
                  ) -> cst.BaseExpression:
        """`node` laid out over lines, if it is a chain of calls `check()` said to."""
        if not self._chains:
            return node
        finding = self._chains.pop(self.span_of(original_node), None)
        if finding is None:
            return node
        fix = finding.data
        indent = fix.indent + fix.unit if fix.parenthesize else fix.indent
        if fix.fluent:
            node = _fluent(node, _break(indent))
        if fix.parenthesize:
            node = node.with_changes(
                lpar=[cst.LeftParen(whitespace_after=_break(indent))],
                rpar=[cst.RightParen(whitespace_before=_break(fix.indent))],
            )
        self.done(finding)
        return node


def _clamped(call: cst.Call, fix: ClampFix) -> cst.Call:
    """The exp call with its operand clamped."""
    func = call.func
    if not isinstance(func, cst.Attribute):
        raise EditError("clamp-log-ratio: the exp call is not `X.exp()` or `torch.exp(X)`")
    lower = cst.UnaryOperation(cst.Minus(), cst.Float(repr(fix.bound)))
    upper = cst.Float(repr(fix.bound))
    if fix.method:
        clamp = cst.Call(
            func=cst.Attribute(value=func.value, attr=cst.Name("clamp")),
            args=[cst.Arg(lower, comma=_comma()), cst.Arg(upper)],
        )
        return call.with_changes(func=func.with_changes(value=clamp))
    if len(call.args) != 1:
        raise EditError("clamp-log-ratio: `torch.exp` takes one argument here")
    clamp_func = cst.Attribute(value=func.value.deep_clone(), attr=cst.Name("clamp"))
    if fix.open_call:
        call = _opened(call, fix.indent, fix.unit)
    argument = call.args[0]
    if fix.layout is Layout.INLINE:
        clamp = cst.Call(
            func=clamp_func,
            args=[
                cst.Arg(argument.value, comma=_comma()),
                keyword("min", lower).with_changes(comma=_comma()),
                keyword("max", upper),
            ],
        )
        return call.with_changes(args=[argument.with_changes(value=clamp)])
    before = call.whitespace_before_args
    after = _after(argument)
    if not (isinstance(before, cst.ParenthesizedWhitespace)
            and isinstance(after, cst.ParenthesizedWhitespace)):
        raise EditError("clamp-log-ratio: the exp call was to be laid out over lines already")
    if fix.layout is Layout.ARGUMENTS_LINE:
        clamp = _clamp_arguments_line(clamp_func, argument.value, lower, upper, before, after,
                                      fix.unit)
    else:
        clamp = _clamp_one_per_line(clamp_func, argument.value, lower, upper, before, after,
                                    fix.unit)
    rest = after.with_changes(first_line=cst.TrailingWhitespace())  # the comment moved
    return call.with_changes(args=[_with_after(argument.with_changes(value=clamp), rest)])


def _opened(call: cst.Call, indent: str, unit: str) -> cst.Call:
    """`torch.exp(X)` → `torch.exp(\\n<indent><unit>X\\n<indent>)`."""
    argument = call.args[0]
    return call.with_changes(
        whitespace_before_args=_break(indent + unit),
        args=[_with_after(argument, _break(indent))],
    )


def _clamp_arguments_line(
    func: cst.Attribute, operand: cst.BaseExpression, lower: cst.BaseExpression,
    upper: cst.BaseExpression, before: cst.ParenthesizedWhitespace,
    after: cst.ParenthesizedWhitespace, unit: str,
) -> cst.Call:
    """`torch.clamp(`, then `X, min=-B, max=B` one level deeper (with the comment that
    followed X), then `)`."""
    return cst.Call(
        func=func,
        whitespace_before_args=_break_like(before, unit),
        args=[
            cst.Arg(operand, comma=_comma()),
            keyword("min", lower).with_changes(comma=_comma()),
            keyword("max", upper).with_changes(
                whitespace_after_arg=_break_like(before, "", after.first_line)
            ),
        ],
    )


def _clamp_one_per_line(
    func: cst.Attribute, operand: cst.BaseExpression, lower: cst.BaseExpression,
    upper: cst.BaseExpression, before: cst.ParenthesizedWhitespace,
    after: cst.ParenthesizedWhitespace, unit: str,
) -> cst.Call:
    """The clamp exploded, one argument a line, with the operand one level deeper (all of
    its lines) and the comment that followed it kept after it."""
    moved = operand.visit(_Reindent(unit))
    assert isinstance(moved, cst.BaseExpression)
    return cst.Call(
        func=func,
        whitespace_before_args=_break_like(before, unit),
        args=[
            cst.Arg(moved, comma=cst.Comma(
                whitespace_after=_break_like(before, unit, after.first_line)
            )),
            keyword("min", lower).with_changes(
                comma=cst.Comma(whitespace_after=_break_like(before, unit))
            ),
            keyword("max", upper).with_changes(
                comma=cst.Comma(whitespace_after=_break_like(before, ""))
            ),
        ],
    )


def _fluent(node: cst.BaseExpression, line_break: cst.ParenthesizedWhitespace,
            top: bool = True) -> cst.BaseExpression:
    """A chain of calls split before each `.`: `(a - b)` / `.clamp(...)` / `.exp()`. A
    plain name keeps its first attribute (`logratio.clamp(...)`), as black keeps it."""
    if not top and getattr(node, "lpar", None):
        return node  # a chain of its own, in its own parentheses
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        return node.with_changes(func=_fluent(node.func, line_break, False))
    if isinstance(node, cst.Subscript):
        return node.with_changes(value=_fluent(node.value, line_break, False))
    if isinstance(node, cst.Attribute):
        if isinstance(node.value, cst.Name):
            return node
        return node.with_changes(value=_fluent(node.value, line_break, False),
                                 dot=cst.Dot(whitespace_before=line_break))
    return node


def _after(argument: cst.Arg) -> cst.BaseParenthesizableWhitespace:
    """The whitespace between an argument (and its comma) and the call's `)`."""
    comma = argument.comma
    return comma.whitespace_after if isinstance(comma, cst.Comma) else (
        argument.whitespace_after_arg
    )


def _with_after(argument: cst.Arg, whitespace: cst.BaseParenthesizableWhitespace) -> cst.Arg:
    comma = argument.comma
    if isinstance(comma, cst.Comma):
        return argument.with_changes(comma=comma.with_changes(whitespace_after=whitespace))
    return argument.with_changes(whitespace_after_arg=whitespace)


def _break(indent: str) -> cst.ParenthesizedWhitespace:
    """A line break inside brackets, the next line at `indent` (from the line's start)."""
    return cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(), indent=False, last_line=cst.SimpleWhitespace(indent)
    )


def _break_like(
    template: cst.ParenthesizedWhitespace, extra: str,
    first_line: cst.TrailingWhitespace | None = None,
) -> cst.ParenthesizedWhitespace:
    """A line break indented like `template`'s next line, plus `extra`."""
    return cst.ParenthesizedWhitespace(
        first_line=first_line or cst.TrailingWhitespace(),
        indent=template.indent,
        last_line=cst.SimpleWhitespace(template.last_line.value + extra),
    )


class _Reindent(cst.CSTTransformer):
    """Indent every continuation line of an expression by one more level."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self._unit = unit

    def leave_ParenthesizedWhitespace(
        self, original_node: cst.ParenthesizedWhitespace, updated_node: cst.ParenthesizedWhitespace
    ) -> cst.ParenthesizedWhitespace:
        return updated_node.with_changes(
            last_line=cst.SimpleWhitespace(updated_node.last_line.value + self._unit)
        )


def _comma() -> cst.Comma:
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
