"""Small layout-preserving edits that several codemods need.

Adding an argument to a call must look as if a person had typed it: on one line for a
one-line call, on its own line (with the trailing comma kept) for an exploded call. New
imports go where isort would put them (`insert_imports`, placing what
`torchfix.rewrite.import_order` decided).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from torchfix.model.formatter import file_quote as file_quote  # the editors' import
from torchfix.rewrite.import_order import ImportInsertion


def append_argument(call: cst.Call, arg: cst.Arg) -> cst.Call:
    """`f(a, b)` → `f(a, b, <arg>)`, keeping the call's layout."""
    args = list(call.args)
    if not args:
        return call.with_changes(args=[arg.with_changes(comma=cst.MaybeSentinel.DEFAULT)])
    last = args[-1]
    separator = cst.Comma(whitespace_after=_argument_separator(call))
    if isinstance(last.comma, cst.Comma):
        # Trailing comma: the new argument inherits it (and the layout before ")"), but a
        # comment after it stays with the argument it was written for (`None,  # mask`).
        after = last.comma.whitespace_after
        inherited = last.comma
        if (isinstance(after, cst.ParenthesizedWhitespace) and after.first_line.comment
                and isinstance(separator.whitespace_after, cst.ParenthesizedWhitespace)):
            separator = separator.with_changes(whitespace_after=(
                separator.whitespace_after.with_changes(first_line=after.first_line)))
            inherited = last.comma.with_changes(whitespace_after=after.with_changes(
                first_line=cst.TrailingWhitespace(newline=after.first_line.newline)))
        args[-1] = last.with_changes(comma=separator)
        args.append(arg.with_changes(comma=inherited))
    elif _sole_argument_over_lines(call):
        # `torch.load(\n    os.path.join(\n        ...\n    )\n)`: black explodes the call
        # once it has two arguments, one a line, the last with a trailing comma
        # (torchpippy's `), weights_only=True`, round 57, was one black would redo)
        args[-1] = last.with_changes(
            comma=cst.Comma(whitespace_after=_without_comments(call.whitespace_before_args)),
            whitespace_after_arg=cst.SimpleWhitespace(""))
        args.append(arg.with_changes(comma=cst.Comma(whitespace_after=last.whitespace_after_arg),
                                     whitespace_after_arg=cst.SimpleWhitespace("")))
    else:
        args[-1] = last.with_changes(comma=separator, whitespace_after_arg=cst.SimpleWhitespace(""))
        args.append(
            arg.with_changes(comma=cst.MaybeSentinel.DEFAULT,
                             whitespace_after_arg=last.whitespace_after_arg)
        )
    return call.with_changes(args=args)


def _sole_argument_over_lines(call: cst.Call) -> bool:
    """Whether the call's one argument sits on lines of its own and spans several, with
    no comma or comment after it (`f(\n    g(\n        x\n    )\n)`)."""
    if len(call.args) != 1 or not isinstance(call.whitespace_before_args,
                                             cst.ParenthesizedWhitespace):
        return False
    sole = call.args[0]
    if isinstance(sole.comma, cst.Comma) or _commented(sole.whitespace_after_arg) or \
            not isinstance(sole.whitespace_after_arg, cst.ParenthesizedWhitespace):
        return False
    return "\n" in cst.Module(body=[]).code_for_node(sole.value)


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


def one_line_call(call: cst.Call) -> cst.Call:
    """`f(\n    a, b\n)` → `f(a, b)`: the call's arguments joined onto one line (each
    argument must be on one line already; `torchfix.rewrite.layout.joins_on_one_line`
    decides when that fits)."""
    args = list(call.args)
    joined = [
        arg.with_changes(
            comma=(cst.MaybeSentinel.DEFAULT if index == len(args) - 1 else
                   cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
            whitespace_after_arg=cst.SimpleWhitespace(""),
        )
        for index, arg in enumerate(args)
    ]
    return call.with_changes(whitespace_after_func=cst.SimpleWhitespace(""),
                             whitespace_before_args=cst.SimpleWhitespace(""), args=joined)


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
    for arg in call.args[:-1]:
        if isinstance(arg.comma, cst.Comma):
            return _without_comments(arg.comma.whitespace_after)
    before = call.whitespace_before_args
    if isinstance(before, cst.ParenthesizedWhitespace) and (
            len(call.args) != 1 or isinstance(call.args[0].comma, cst.Comma)
            or _commented(call.args[0].whitespace_after_arg)):
        # An exploded call: one argument per line, at the first argument's indent. A
        # sole argument on a line of its own without a trailing comma or a comment
        # (black's `f(\n    a\n)`) is not: the next one shares its line.
        return _without_comments(before)
    return cst.SimpleWhitespace(" ")


def _commented(whitespace: cst.BaseParenthesizableWhitespace) -> bool:
    return isinstance(whitespace, cst.ParenthesizedWhitespace) and (
        whitespace.first_line.comment is not None
        or any(line.comment is not None for line in whitespace.empty_lines))


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


# -- module-level statements -----------------------------------------------------------------


def statement_indexes(module: cst.Module) -> list[int]:
    """For each top-level statement of CPython's tree of the same code, the index of the
    libcst statement holding it (CPython counts `a; b` as two statements, libcst as one
    line)."""
    indexes: list[int] = []
    for index, statement in enumerate(module.body):
        count = len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        indexes += [index] * count
    return indexes


def insert_imports(
    module: cst.Module, insertions: Sequence[ImportInsertion], indexes: Sequence[int]
) -> tuple[cst.Module, list[int]]:
    """`module` with the import statements a `torchfix.rewrite.import_order` plan places,
    and where each of its top-level statements went (old index → new index).

    `indexes` maps CPython's statement indexes, which the plan uses, to `module.body`'s
    (`statement_indexes` of the code the plan was made for).
    """
    before: dict[int, list[ImportInsertion]] = {}
    after: dict[int, list[ImportInsertion]] = {}
    for insertion in insertions:
        where = after if insertion.after else before
        where.setdefault(indexes[insertion.index], []).append(insertion)
    body: list[cst.BaseStatement] = []
    moved: list[int] = []
    for index, statement in enumerate(module.body):
        for insertion in before.get(index, ()):
            imports, statement = _joining(module, insertion, statement)
            body += imports
        moved.append(len(body))
        body.append(statement)
        for insertion in after.get(index, ()):
            body += _import_statements(module, insertion.statements, insertion.new_group)
    return module.with_changes(body=body), moved


def _import_statements(module: cst.Module, lines: Sequence[str], new_group: bool
                       ) -> list[cst.BaseStatement]:
    statements = [cst.parse_statement(line + module.default_newline,
                                      config=module.config_for_parsing) for line in lines]
    if new_group and statements:
        statements[0] = statements[0].with_changes(leading_lines=[cst.EmptyLine()])
    return statements


def _joining(module: cst.Module, insertion: ImportInsertion, statement: cst.BaseStatement
             ) -> tuple[list[cst.BaseStatement], cst.BaseStatement]:
    """The imports to place before `statement`, and `statement` as it then is.

    Joining a group at its start, the imports take the blank lines and comments above
    it (they belong to the group). Starting a new group, they take only the blank lines
    before the first comment, and `statement` keeps its comments, one blank line above.
    """
    imports = _import_statements(module, insertion.statements, False)
    lines = list(statement.leading_lines)
    if insertion.new_group:
        blanks = next((i for i, line in enumerate(lines) if line.comment is not None),
                      len(lines))
        taken, kept = lines[:blanks], [cst.EmptyLine(), *lines[blanks:]]
    else:
        taken, kept = lines, []
    imports[0] = imports[0].with_changes(leading_lines=taken)
    return imports, statement.with_changes(leading_lines=kept)
