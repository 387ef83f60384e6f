"""assert-to-raise's editor: lays out the `if ...: raise` that `check()` decided.

Which asserts change, into which exception, was decided on CPython's tree
(`codemods.assertions.assert_to_raise`); here libcst keeps the comments and layout
around each one.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator, Sequence

import libcst as cst

from codemods.assertions.assert_to_raise import UNREACHABLE_MESSAGE, AssertToRaise, Decision
from torchfix.rewrite.editing import Editor


class AssertToRaiseEditor(Editor):
    """Replaces each decided assert (the findings' `data` is its `Decision`)."""

    # -- statements holding asserts --------------------------------------------------------

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if not _has_assert(original_node.body):
            return updated_node  # also left for every line of a visited function
        indent = self.position(original_node.body[0]).start.column
        comment = updated_node.trailing_whitespace.comment
        # The line's comment ends up after the last `if` header: it counts in its width.
        comment_width = len(comment.value) + 2 if comment is not None else 0
        pieces = self._rewrite_statements(
            original_node.body, updated_node.body, indent, comment_width
        )
        if pieces is None:
            return updated_node
        lines = _as_lines(pieces, updated_node.trailing_whitespace)
        first = lines[0]
        lines[0] = first.with_changes(leading_lines=updated_node.leading_lines)
        return lines[0] if len(lines) == 1 else cst.FlattenSentinel(lines)

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.BaseSuite:
        if not _has_assert(original_node.body):
            return updated_node
        # The suite's statements move into a block one level below the compound statement.
        owner = self.position(self._statements[-1]).start.column
        indent = owner + len(self._default_indent())
        pieces = self._rewrite_statements(original_node.body, updated_node.body, indent, 0)
        if pieces is None:
            return updated_node
        if all(isinstance(piece, cst.BaseSmallStatement) for piece in pieces):
            # Only `assert False` became `raise`: the suite stays on its line.
            return updated_node.with_changes(body=_end_group(pieces))  # type: ignore[arg-type]
        # `if x: assert y` needs a block of its own; the comment stays on the header.
        return cst.IndentedBlock(
            header=updated_node.trailing_whitespace,
            body=_as_lines(pieces, cst.TrailingWhitespace()),
        )

    def _rewrite_statements(
        self,
        originals: Sequence[cst.BaseSmallStatement],
        updates: Sequence[cst.BaseSmallStatement],
        indent: int,
        comment_width: int,
    ) -> list[cst.BaseSmallStatement | cst.If] | None:
        """The statements with each assert replaced as decided; None if nothing changed."""
        pieces: list[cst.BaseSmallStatement | cst.If] = []
        changed = False
        for original, updated in zip(originals, updates, strict=True):
            piece: cst.BaseSmallStatement | cst.If = updated
            if isinstance(original, cst.Assert) and isinstance(updated, cst.Assert):
                finding = self.finding_at(original)
                if finding is not None:
                    piece = self._rewrite_assert(
                        updated, finding.data, indent, comment_width
                    )
                    self.done(finding)
                    changed = True
            pieces.append(piece)
        return pieces if changed else None

    def _rewrite_assert(
        self, updated: cst.Assert, decision: Decision, indent: int, comment_width: int
    ) -> cst.BaseSmallStatement | cst.If:
        if decision.always_fails:
            call = self._exception_call(updated, decision, indent)
            return cst.Raise(exc=call, semicolon=updated.semicolon)
        call = self._exception_call(updated, decision, indent + len(self._default_indent()))
        return cst.If(
            test=self._if_test(updated.test, indent + comment_width),
            body=cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Raise(exc=call)])]),
        )

    def _if_test(self, condition: cst.BaseExpression, extra_width: int) -> cst.BaseExpression:
        """The failure test, on one line where it was split only to fit the assert's width.

        `extra_width` counts the indent and the comment that share the line.
        """
        joined = one_line(condition)
        if joined is not None and joined is not condition:
            test = failure_test(joined)
            if extra_width + len(f"if {_NO_CODE.code_for_node(test)}:") <= self._line_length():
                return test
        return failure_test(condition)

    def _line_length(self) -> int:
        return int(self.file.option("line-length", AssertToRaise))

    def _exception_call(self, assertion: cst.Assert, decision: Decision, indent: int) -> cst.Call:
        """`ValueError(<message>)`, with the message on a line of its own when too long."""
        call = cst.Call(
            func=cst.Name(decision.exception), **_message_arguments(assertion, decision)
        )
        if _aligned_for_the_assert(assertion.msg):
            return _exploded(call, self._default_indent(), relay=True)
        single = f"raise {_NO_CODE.code_for_node(call)}"
        if "\n" in single:
            return call  # the message keeps its own layout
        longest_before = max(
            len(line) for line in _NO_CODE.code_for_node(assertion).splitlines()
        )
        limit = max(self._line_length(), indent + longest_before)
        if indent + len(single) <= limit:
            return call
        return _exploded(call, self._default_indent())

    def _default_indent(self) -> str:
        wrapper = self.context.wrapper
        return wrapper.module.default_indent if wrapper is not None else "    "


# -- layout ------------------------------------------------------------------------------


def _has_assert(statements: Sequence[cst.BaseSmallStatement]) -> bool:
    return any(isinstance(statement, cst.Assert) for statement in statements)


def _as_lines(
    pieces: Sequence[cst.BaseSmallStatement | cst.If], trailing: cst.TrailingWhitespace
) -> list[cst.BaseStatement]:
    """Small statements grouped into lines between the new `if` blocks.

    The original line's trailing comment goes to the last line made, or to the header of
    the last `if` (`if x != y:  # comment`).
    """
    lines: list[cst.BaseStatement] = []
    group: list[cst.BaseSmallStatement] = []

    def close_group() -> None:
        if group:
            lines.append(cst.SimpleStatementLine(body=_end_group(group)))
            group.clear()

    for piece in pieces:
        if isinstance(piece, cst.If):
            close_group()
            lines.append(piece)
        else:
            group.append(piece)
    close_group()
    last = lines[-1]
    if isinstance(last, cst.If):
        lines[-1] = last.with_changes(body=last.body.with_changes(header=trailing))
    else:
        lines[-1] = last.with_changes(trailing_whitespace=trailing)
    return lines


def _end_group(statements: Sequence[cst.BaseSmallStatement]) -> list[cst.BaseSmallStatement]:
    """The statements of one line, with no semicolon after the last."""
    *head, last = statements
    return [*head, last.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)]


def _exploded(call: cst.Call, indent: str, *, relay: bool = False) -> cst.Call:
    """`f(a)` → `f(\n    a\n)`: the argument on its own line(s), one level in.

    With `relay`, the line breaks between the parts of a concatenated string move to the
    same indent (they were aligned under the assert, or continued with backslashes).
    """
    (argument,) = call.args
    value = argument.value
    if relay and isinstance(value, cst.ConcatenatedString):
        value = _hanging_parts(value, indent)
    closing = argument.whitespace_after_arg
    if isinstance(closing, cst.ParenthesizedWhitespace):
        closing = closing.with_changes(indent=True, last_line=cst.SimpleWhitespace(""))
    else:
        closing = cst.ParenthesizedWhitespace(indent=True)
    return call.with_changes(
        whitespace_before_args=cst.ParenthesizedWhitespace(
            indent=True, last_line=cst.SimpleWhitespace(indent)
        ),
        args=[argument.with_changes(value=value, whitespace_after_arg=closing)],
    )


def _hanging_parts(text: cst.ConcatenatedString, indent: str) -> cst.ConcatenatedString:
    """Each part of `"a" "b"` that starts a line starts it at `indent` (comments kept)."""
    between = text.whitespace_between
    if isinstance(between, cst.ParenthesizedWhitespace):
        between = between.with_changes(indent=True, last_line=cst.SimpleWhitespace(indent))
    elif "\\" in between.value:
        between = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(indent))
    right = text.right
    if isinstance(right, cst.ConcatenatedString):
        right = _hanging_parts(right, indent)
    return text.with_changes(whitespace_between=between, right=right)


def _aligned_for_the_assert(message: cst.BaseExpression | None) -> bool:
    """A multi-line string concatenation laid out for the assert's line, not a call's.

    `assert x, "a" \\` + newline + `"b"`, or `assert x, ("a"` + newline + aligned `"b")`:
    in `raise ValueError(...)` those continuation lines would sit at odd columns.
    A message in parentheses with a line break right after `(` has a hanging indent,
    which moves along with the block.
    """
    if not isinstance(message, cst.ConcatenatedString):
        return False
    if "\n" not in _NO_CODE.code_for_node(message):
        return False
    if not message.lpar:
        return True
    return not isinstance(message.lpar[0].whitespace_after, cst.ParenthesizedWhitespace)


# -- the new condition -------------------------------------------------------------------

_FLIPPED_OPERATORS: dict[type[cst.BaseCompOp], type[cst.BaseCompOp]] = {
    cst.Equal: cst.NotEqual,
    cst.NotEqual: cst.Equal,
    cst.Is: cst.IsNot,
    cst.IsNot: cst.Is,
    cst.In: cst.NotIn,
    cst.NotIn: cst.In,
}
# Expressions that read the same without parentheses as an `if` test.
_BARE_IN_IF = (
    cst.Attribute, cst.BinaryOperation, cst.BooleanOperation, cst.Call, cst.Comparison,
    cst.Name, cst.Subscript, cst.UnaryOperation,
)
# Expressions `not` applies to without parentheses, and that read well that way.
_ATOMS = (
    cst.Attribute, cst.Call, cst.ConcatenatedString, cst.Dict, cst.Float, cst.FormattedString,
    cst.Integer, cst.List, cst.Name, cst.Set, cst.SimpleString, cst.Subscript,
)
_NO_CODE = cst.Module(body=[])


def failure_test(condition: cst.BaseExpression) -> cst.BaseExpression:
    """The test that is true exactly when the assert would fail."""
    if isinstance(condition, cst.Comparison) and len(condition.comparisons) == 1:
        target = condition.comparisons[0]
        flipped = _flipped(target.operator)
        if flipped is not None:
            return _without_flat_parentheses(
                condition.with_changes(comparisons=[target.with_changes(operator=flipped)])
            )
    if isinstance(condition, cst.UnaryOperation) and isinstance(condition.operator, cst.Not):
        inner = condition.expression
        # `(not x)` → `(x)`: parentheses that may hold comments move to the operand.
        inner = inner.with_changes(
            lpar=[*condition.lpar, *inner.lpar], rpar=[*inner.rpar, *condition.rpar]
        )
        return _without_flat_parentheses(inner)
    if isinstance(condition, _ATOMS):
        condition = _without_flat_parentheses(condition)  # `not (x.ok)` → `not x.ok`
    elif not condition.lpar:
        condition = condition.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.UnaryOperation(operator=cst.Not(), expression=condition)


class _OneLine(cst.CSTTransformer):
    """Every line break in an expression replaced by the space a formatter puts there."""

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:
        changes = {}
        for name in (item.name for item in dataclasses.fields(updated_node)):
            value = getattr(updated_node, name)
            if isinstance(value, cst.ParenthesizedWhitespace) or (
                isinstance(value, cst.SimpleWhitespace) and "\\" in value.value
            ):
                tight = (type(updated_node), name) in _NO_SPACE
                changes[name] = cst.SimpleWhitespace("" if tight else " ")
        return updated_node.with_changes(**changes) if changes else updated_node


# Whitespace that is empty on one line: inside brackets, before commas, around dots, ...
_NO_SPACE = frozenset(
    {
        (cst.Arg, "whitespace_after_arg"), (cst.Arg, "whitespace_after_star"),
        (cst.AssignEqual, "whitespace_after"), (cst.AssignEqual, "whitespace_before"),
        (cst.Call, "whitespace_after_func"), (cst.Call, "whitespace_before_args"),
        (cst.Colon, "whitespace_before"), (cst.Comma, "whitespace_before"),
        (cst.DictElement, "whitespace_before_colon"), (cst.Dot, "whitespace_after"),
        (cst.Dot, "whitespace_before"), (cst.LeftCurlyBrace, "whitespace_after"),
        (cst.LeftParen, "whitespace_after"), (cst.LeftSquareBracket, "whitespace_after"),
        (cst.RightCurlyBrace, "whitespace_before"), (cst.RightParen, "whitespace_before"),
        (cst.RightSquareBracket, "whitespace_before"),
        (cst.StarredElement, "whitespace_before_value"), (cst.Subscript, "whitespace_after_value"),
    }
)


def one_line(expression: cst.BaseExpression) -> cst.BaseExpression | None:
    """The expression joined onto one line, or None if that would lose something.

    Comments, multi-line strings and trailing commas (which ask a formatter to keep one
    item per line) stay as they are: the expression is then not joined.
    """
    if "\n" not in _NO_CODE.code_for_node(expression):
        return expression
    for node in _walk(expression):
        if isinstance(node, cst.Comment):
            return None
        if isinstance(node, (cst.SimpleString, cst.FormattedStringText)) and "\n" in node.value:
            return None
        if _has_trailing_comma(node):
            return None
    joined = expression.visit(_OneLine())
    if not isinstance(joined, cst.BaseExpression) or "\n" in _NO_CODE.code_for_node(joined):
        return None
    return joined


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)


def _has_trailing_comma(node: cst.CSTNode) -> bool:
    items: Sequence[cst.CSTNode] = ()
    if isinstance(node, cst.Call):
        items = node.args
    elif isinstance(node, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
        items = node.elements
    elif isinstance(node, cst.Subscript):
        items = node.slice
    return bool(items) and isinstance(getattr(items[-1], "comma", None), cst.Comma)


def _flipped(operator: cst.BaseCompOp) -> cst.BaseCompOp | None:
    flipped_type = _FLIPPED_OPERATORS.get(type(operator))
    if flipped_type is None:
        return None
    before = operator.whitespace_before  # type: ignore[attr-defined]
    after = operator.whitespace_after  # type: ignore[attr-defined]
    if flipped_type in (cst.IsNot, cst.NotIn):
        return flipped_type(  # type: ignore[call-arg]
            whitespace_before=before, whitespace_between=cst.SimpleWhitespace(" "),
            whitespace_after=after,
        )
    return flipped_type(whitespace_before=before, whitespace_after=after)  # type: ignore[call-arg]


def _without_flat_parentheses(expression: cst.BaseExpression) -> cst.BaseExpression:
    """`(a != b)` → `a != b` when the parentheses hold no line break or comment."""
    if (
        expression.lpar
        and isinstance(expression, _BARE_IN_IF)
        and "\n" not in _NO_CODE.code_for_node(expression)
        and "\\" not in _NO_CODE.code_for_node(expression)
    ):
        return expression.with_changes(lpar=[], rpar=[])
    return expression


# -- the new message ---------------------------------------------------------------------

# Messages whose own parentheses can become the call's: `("a" "b")` → `ValueError("a" "b")`.
# A tuple's parentheses belong to the value (`ValueError((a, b))` takes one argument).
_MESSAGES_WITHOUT_PARENTHESES = (
    cst.Attribute, cst.BinaryOperation, cst.Call, cst.ConcatenatedString, cst.FormattedString,
    cst.Name, cst.SimpleString, cst.Subscript,
)


def _message_arguments(assertion: cst.Assert, decision: Decision) -> dict[str, object]:
    """The `args` (and the layout inside the parentheses) of `ValueError(...)`."""
    message = assertion.msg
    if message is None:
        if decision.always_fails:
            text = cst.SimpleString(string_literal(UNREACHABLE_MESSAGE))
        else:
            expected = f"expected {condition_text(assertion, decision)}"
            text = cst.SimpleString(string_literal(expected))
        return {"args": [cst.Arg(value=text)]}
    if message.lpar and isinstance(message, _MESSAGES_WITHOUT_PARENTHESES):
        # A message in parentheses spans lines: they become the call's, layout and all.
        opening, closing = message.lpar[0], message.rpar[-1]
        inner = message.with_changes(lpar=message.lpar[1:], rpar=message.rpar[:-1])
        return {
            "args": [cst.Arg(value=inner, whitespace_after_arg=closing.whitespace_before)],
            "whitespace_before_args": opening.whitespace_after,
        }
    return {"args": [cst.Arg(value=message)]}


def condition_text(assertion: cst.Assert, decision: Decision) -> str:
    """The condition as written, joined onto one line; else as CPython writes it."""
    condition = assertion.test
    if len(condition.lpar) == 1:
        condition = condition.with_changes(lpar=[], rpar=[])
    joined = one_line(condition)
    return decision.condition_text if joined is None else _NO_CODE.code_for_node(joined)


def string_literal(text: str) -> str:
    """A plain (never f-) string literal for `text`, double-quoted unless that needs escapes."""
    quote = "'" if '"' in text and "'" not in text else '"'
    escaped = []
    for character in text:
        if character in ("\\", quote):
            escaped.append("\\" + character)
        elif not character.isprintable():
            escaped.append(character.encode("unicode_escape").decode("ascii"))
        else:
            escaped.append(character)
    literal = quote + "".join(escaped) + quote
    return literal if ast.literal_eval(literal) == text else repr(text)

