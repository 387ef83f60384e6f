"""Small layout-preserving edits that several codemods need.

Adding an argument to a call must look as if a person had typed it: on one line for a
one-line call, on its own line (with the trailing comma kept) for an exploded call.
"""

from __future__ import annotations

import libcst as cst


def append_argument(call: cst.Call, arg: cst.Arg) -> cst.Call:
    """`f(a, b)` → `f(a, b, <arg>)`, keeping the call's layout."""
    args = list(call.args)
    if not args:
        return call.with_changes(args=[arg.with_changes(comma=cst.MaybeSentinel.DEFAULT)])
    last = args[-1]
    separator = cst.Comma(whitespace_after=_argument_separator(call))
    if isinstance(last.comma, cst.Comma):
        # Trailing comma: the new argument inherits it (and the layout before ")").
        args[-1] = last.with_changes(comma=separator)
        args.append(arg.with_changes(comma=last.comma))
    else:
        args[-1] = last.with_changes(comma=separator, whitespace_after_arg=cst.SimpleWhitespace(""))
        args.append(
            arg.with_changes(comma=cst.MaybeSentinel.DEFAULT,
                             whitespace_after_arg=last.whitespace_after_arg)
        )
    return call.with_changes(args=args)


def prepend_argument(call: cst.Call, arg: cst.Arg) -> cst.Call:
    """`f(a, b)` → `f(<arg>, a, b)`, keeping the call's layout."""
    args = list(call.args)
    if not args:
        return call.with_changes(args=[arg.with_changes(comma=cst.MaybeSentinel.DEFAULT)])
    before = call.whitespace_before_args
    # In an exploded call the new first argument gets a line of its own; with a hanging
    # indent, `f(a,\n  b)`, it joins the first line.
    separator = (
        _without_comments(before)
        if isinstance(before, cst.ParenthesizedWhitespace)
        else cst.SimpleWhitespace(" ")
    )
    return call.with_changes(
        args=[arg.with_changes(comma=cst.Comma(whitespace_after=separator)), *args]
    )


def insert_argument(call: cst.Call, index: int, arg: cst.Arg) -> cst.Call:
    """`f(a, b)` → `f(a, <arg>, b)` for index 1, keeping the call's layout.

    Index 0 prepends and an index at or past the end appends; in between, the new
    argument is separated from the next one the way its predecessor is.
    """
    args = list(call.args)
    if index <= 0 or not args:
        return prepend_argument(call, arg)
    if index >= len(args):
        return append_argument(call, arg)
    previous = args[index - 1]
    separator = (
        _without_comments(previous.comma.whitespace_after)
        if isinstance(previous.comma, cst.Comma)
        else cst.SimpleWhitespace(" ")
    )
    args.insert(index, arg.with_changes(comma=cst.Comma(whitespace_after=separator)))
    return call.with_changes(args=args)


def as_keyword(arg: cst.Arg, name: str) -> cst.Arg:
    """A positional argument passed by keyword instead: `x` → `name=x`, same layout."""
    return arg.with_changes(
        keyword=cst.Name(name),
        equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
        ),
    )


def _argument_separator(call: cst.Call) -> cst.BaseParenthesizableWhitespace:
    """The whitespace that goes between two arguments of this call."""
    before = call.whitespace_before_args
    if isinstance(before, cst.ParenthesizedWhitespace):
        # An exploded call: one argument per line, at the first argument's indent.
        return _without_comments(before)
    for arg in call.args[:-1]:
        if isinstance(arg.comma, cst.Comma):
            return _without_comments(arg.comma.whitespace_after)
    return cst.SimpleWhitespace(" ")


def _without_comments(
    whitespace: cst.BaseParenthesizableWhitespace,
) -> cst.BaseParenthesizableWhitespace:
    """The same line break and indent, without the comments that belong to other code."""
    if isinstance(whitespace, cst.ParenthesizedWhitespace):
        return whitespace.with_changes(
            first_line=cst.TrailingWhitespace(newline=whitespace.first_line.newline),
            empty_lines=[],
        )
    return whitespace


def keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    """A `name=value` argument in the usual style (no spaces around `=`)."""
    return cst.Arg(
        keyword=cst.Name(name),
        value=value,
        equal=cst.AssignEqual(
            whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
        ),
    )
