"""assert-to-raise: input checks written as `assert` become `if ...: raise ValueError(...)`."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import libcst as cst
from libcst.codemod import CodemodContext

from torchfix.model.ast_index import per_tree
from torchfix.model.test_code import is_test_path
from torchfix.rewrite.codemod import CodemodSettings, Finding, Option, Safety, TorchfixCodemod


class Verdict(Enum):
    SAFE = "safe"  # an input check: rewritten by default
    UNSAFE = "unsafe"  # another runtime check: rewritten only with --unsafe-fixes
    REPORT = "report"  # code relies on the AssertionError: reported, never rewritten


@dataclass(frozen=True)
class Decision:
    """What to do with one assert, decided from CPython's parse of the file."""

    verdict: Verdict
    exception: str  # "ValueError", "TypeError" or (for `assert False`) "AssertionError"
    assertion: ast.Assert
    always_fails: bool = False  # `assert False, ...`: becomes a plain `raise`
    reason: str = ""  # why it is not SAFE

    @property
    def condition(self) -> ast.expr:
        return self.assertion.test

    def message(self) -> tuple[str, Safety]:
        """What the change says, and how safe it is."""
        if self.verdict is Verdict.REPORT:
            return self.reason, Safety.MANUAL
        message = f"assert is stripped by python -O: raise {self.exception} instead"
        if self.verdict is Verdict.UNSAFE:
            return f"{message} ({self.reason})", Safety.UNSAFE
        return message, Safety.SAFE

    @property
    def condition_text(self) -> str:
        """The condition as CPython writes it: one line, no comments."""
        return ast.unparse(self.condition)


ASSERTION_ERROR = "AssertionError"
# The message of a bare `assert False`, which marks code that should not be reached.
UNREACHABLE_MESSAGE = "unreachable code was reached"
TYPE_CHECK_FUNCTIONS = frozenset({"isinstance", "issubclass"})
# Methods and torch functions whose result depends on tensor values, not shapes. Under
# torch.compile an assert on such a value becomes an async device assert; an `if` on it
# breaks the graph. Under `python -O` the assert (and its device sync) was free.
TENSOR_VALUE_FUNCTIONS = frozenset(
    {
        "all", "allclose", "any", "count_nonzero", "equal", "isclose", "isfinite", "isinf",
        "isnan", "isneginf", "isposinf", "isreal", "item", "max", "mean", "min", "nonzero",
        "norm", "sum", "tolist", "unique",
    }
)
# Checks that, with no message, are mostly there to narrow a type for the type checker.
NARROWING_FUNCTIONS = frozenset({"callable", "hasattr", "isinstance", "issubclass"})
# Methods that validate the fields a constructor just stored: `self.x` there is an input.
POST_INIT_METHODS = frozenset({"__post_init__", "__attrs_post_init__"})


class AssertToRaise(TorchfixCodemod):
    """Turn runtime checks written as `assert` into `if ...: raise ValueError(...)`.

    ## What it does
    Rewrites `assert cond, msg` into `if not cond: raise ValueError(msg)`, or `TypeError`
    when the condition is an `isinstance`/`issubclass` check. The condition is inverted
    where that is exactly equivalent (`==`/`!=`, `is`/`is not`, `in`/`not in`, `not x`);
    otherwise it is wrapped in `not (...)` (`a < b` never becomes `a >= b`: NaN compares
    false both ways). The message expression is kept as written; an assert without one
    gets `"expected <condition>"`: the condition's source on one line, in a plain string
    literal (quotes and backslashes escaped, braces left as they are).

    Comments before, inside and after the assert are kept (a trailing comment moves to
    the `if` line). A condition that a formatter split over lines only to fit the assert
    goes back on one line when the `if` fits in `line-length`; a message aligned under
    the assert, or continued with backslashes, gets a hanging indent inside the call, and
    a `raise` too long for one line puts its message on a line of its own. `if x: assert y`
    and `a = 1; assert a` are split into lines. Run your formatter afterwards if it has
    opinions about the rest.

    ## Why
    `python -O` (and `PYTHONOPTIMIZE`) removes every `assert`. A check on a learning rate,
    a discount factor or a tensor shape then lets bad input through silently and training
    goes on with NaNs or broadcast garbage. An explicit `raise` always runs, and a
    `ValueError`/`TypeError` tells the caller that the argument, not the library, is wrong.

    ## Example
    ```python
    def ppo_loss(ratio, advantages, clip_range: float, config):
        assert 0.0 < clip_range < 1.0, f"clip_range must be in (0, 1), got {clip_range}"
        assert config.gamma == DEFAULT_GAMMA, "PBRS gamma must match PPO gamma"
        assert ratio.shape == advantages.shape
    ```
    becomes
    ```python
    def ppo_loss(ratio, advantages, clip_range: float, config):
        if not (0.0 < clip_range < 1.0):
            raise ValueError(f"clip_range must be in (0, 1), got {clip_range}")
        if config.gamma != DEFAULT_GAMMA:
            raise ValueError("PBRS gamma must match PPO gamma")
        if ratio.shape != advantages.shape:
            raise ValueError("expected ratio.shape == advantages.shape")
    ```

    ## Fix safety
    The fix is **safe** for input checks: an assert in a public function or method whose
    condition reads a parameter (or an attribute of one, like `config.gamma`; `self.x` in
    `__post_init__`) that has not been reassigned before the assert, and reads no other
    local variable. Everything else is a runtime invariant of the library itself (state on
    `self`, values computed in the function, asserts at module level or in a class body,
    in private functions, methods of private classes, nested functions) and is
    **unsafe**, as are: `assert False` (it becomes `raise AssertionError(...)`: the same
    exception, no longer stripped by `-O`); message-less checks of a parameter's attribute
    (`assert trainer.max_epochs is not None`, `assert algo.impl`: written to narrow a type
    for mypy, about state handed in rather than user input); conditions on tensor values
    (`.all()`, `.item()`, `torch.isfinite`, ...: the rewrite keeps a device sync that `-O`
    removed and breaks the `torch.compile` graph where the assert did not); and every
    assert in a file that catches `AssertionError` somewhere.

    Reported, never rewritten (the code relies on the AssertionError): an assert inside a
    `try` whose handler catches `AssertionError`, in a function that such a `try` in the
    same file calls, or in a function whose docstring (or, for `__init__`, whose class's
    docstring) says it raises `AssertionError`.

    Never touched: test code (`test_*.py`, `*_test.py`, `conftest.py`, files under
    `test/`, `tests/`, `testing/` or `test_utils/` below the folder torchfix runs in,
    `testing.py`, `testing_utils.py`, `test_utils.py`, modules that import `pytest` or
    `unittest`, module-level `test*` functions, `Test*` and `*TestCase` classes, `assert*`
    helpers), asserts under `if TYPE_CHECKING:` or `if __debug__:`, and asserts that can
    never fail (`assert (x, "message")`).

    Callers in other files that catch `AssertionError`, and tests that expect it
    (`pytest.raises(AssertionError)`), cannot be seen from one file: search for them
    before applying.
    """

    name = "assert-to-raise"
    summary = "Raise ValueError/TypeError instead of asserting on inputs: asserts vanish under -O."
    triggers = (b"assert",)
    fix_safety = "safe, unsafe"
    options = (
        Option(
            "line-length", 88,
            "A `raise` longer than this (and than the assert it replaces) puts its message "
            "on a line of its own.",
        ),
    )

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        super().__init__(context, settings)
        self._plan = Plan()

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return set(plan_for(tree).decisions)

    @classmethod
    def findings(cls, tree: ast.Module) -> list[Finding]:
        # The plan decides every assert; the rewrite only lays out the `if` and `raise`.
        return [
            Finding(decision.assertion, *decision.message())
            for decisions in plan_for(tree).decisions.values()
            for decision in decisions
        ]

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        return is_test_path(path)  # test assertions, not input checks

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        if self.settings.python_tree is None:
            return tree
        self._plan = plan_for(self.settings.python_tree)
        if not self._plan.decisions:
            return tree
        return super().transform_module_impl(tree)

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
        seen_on_line: dict[int, int] = {}
        for original, updated in zip(originals, updates, strict=True):
            piece: cst.BaseSmallStatement | cst.If = updated
            if isinstance(original, cst.Assert) and isinstance(updated, cst.Assert):
                line = self.position(original).start.line
                index = seen_on_line.get(line, 0)
                seen_on_line[line] = index + 1
                decision = self._plan.decision(line, index)
                if decision is not None:
                    piece = self._rewrite_assert(
                        original, updated, decision, indent, comment_width
                    )
                    changed = changed or piece is not updated
            pieces.append(piece)
        return pieces if changed else None

    def _rewrite_assert(
        self,
        original: cst.Assert,
        updated: cst.Assert,
        decision: Decision,
        indent: int,
        comment_width: int,
    ) -> cst.BaseSmallStatement | cst.If:
        message, safety = decision.message()
        if safety is Safety.MANUAL:
            self.report(original, message)
            return updated
        replacement: cst.BaseSmallStatement | cst.If
        if decision.always_fails:
            call = self._exception_call(updated, decision, indent)
            replacement = cst.Raise(exc=call, semicolon=updated.semicolon)
        else:
            call = self._exception_call(updated, decision, indent + len(self._default_indent()))
            replacement = cst.If(
                test=self._if_test(updated.test, indent + comment_width),
                body=cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Raise(exc=call)])]),
            )
        return self.fix(original, updated, replacement, message, safety)

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
        return int(self.option("line-length"))

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


# -- which asserts, and how safe: read from CPython's parse ------------------------------


@dataclass
class Plan:
    """Line of each assert the codemod acts on → the decisions there, in column order."""

    decisions: dict[int, list[Decision]] = field(default_factory=dict)

    def decision(self, line: int, index: int) -> Decision | None:
        on_line = self.decisions.get(line, [])
        return on_line[index] if index < len(on_line) else None


@per_tree
def plan_for(tree: ast.Module) -> Plan:
    """The plan of a file: what to do with each of its asserts."""
    return _Planner.plan(tree)


@dataclass
class _Function:
    """Facts about one function that has asserts in it."""

    node: ast.FunctionDef | ast.AsyncFunctionDef
    owner: ast.ClassDef | None  # the class it is a method of
    nested: bool
    _bindings: dict[str, list[tuple[tuple[int, int], frozenset[int]]]] | None = None

    @property
    def name(self) -> str:
        return self.node.name

    @property
    def in_class(self) -> bool:
        return self.owner is not None

    def documents_assertion_error(self) -> bool:
        """Whether its docstring (a constructor's: or its class's) promises AssertionError."""
        documented: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = [self.node]
        if self.owner is not None and self.name == "__init__":
            documented.append(self.owner)
        return any(
            ASSERTION_ERROR in (ast.get_docstring(node, clean=False) or "") for node in documented
        )

    @property
    def self_parameter(self) -> str | None:
        if not self.in_class or _decorated_with(self.node, "staticmethod"):
            return None
        positional = [*self.node.args.posonlyargs, *self.node.args.args]
        return positional[0].arg if positional else None

    @property
    def parameters(self) -> set[str]:
        arguments = self.node.args
        names = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
        names |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
        return names

    @property
    def public(self) -> bool:
        if self.owner is not None and self.owner.name.startswith("_"):
            return False  # a method of a private class
        name = self.name
        return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))

    def bindings(self) -> dict[str, list[tuple[tuple[int, int], frozenset[int]]]]:
        """name → (position, enclosing loops) of each place the body binds it."""
        if self._bindings is None:
            self._bindings = {}
            for statement in self.node.body:
                self._collect(statement, frozenset())
        return self._bindings

    def _collect(self, node: ast.AST, loops: frozenset[int]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._bind(node.name, node, loops)
            return  # a scope of its own
        if isinstance(node, ast.Lambda):
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            for inner in ast.walk(node):  # only `:=` inside binds in this function
                if isinstance(inner, ast.NamedExpr) and isinstance(inner.target, ast.Name):
                    self._bind(inner.target.id, inner, loops)
            return
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            loops = loops | {id(node)}
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            self._bind(node.id, node, loops)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            self._bind(node.name, node, loops)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                self._bind((alias.asname or alias.name).split(".")[0], node, loops)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                self._bind(name, node, loops)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            self._bind(node.name, node, loops)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            self._bind(node.rest, node, loops)
        for child in ast.iter_child_nodes(node):
            self._collect(child, loops)

    def _bind(self, name: str, node: ast.AST, loops: frozenset[int]) -> None:
        position = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        self._bindings.setdefault(name, []).append((position, loops))  # type: ignore[union-attr]


@dataclass
class _Frame:
    """One function (or the module) being walked."""

    function: _Function | None
    loops: list[int] = field(default_factory=list)
    catching_try_depth: int = 0  # enclosing `try` bodies whose handlers catch AssertionError


class _Planner(ast.NodeVisitor):
    """Walks the module's statements once and decides every assert the codemod may act on.

    Asserts are statements, so expressions are never entered: that keeps the walk a small
    fraction of the cost of parsing.
    """

    def __init__(self, checked_calls: set[str], catches_assertion_error: bool) -> None:
        self.plan = Plan()
        self._checked_calls = checked_calls  # functions called where AssertionError is caught
        self._catches_assertion_error = catches_assertion_error
        self._frames = [_Frame(None)]
        self._class_depth_in_frame = [0]  # classes directly around the current position
        self._classes: list[ast.ClassDef] = []
        self._skipped = 0  # inside test code, `if TYPE_CHECKING:` or `if __debug__:`

    @classmethod
    def plan(cls, tree: ast.Module) -> Plan:
        asserts = False
        catching: list[ast.Try | ast.TryStar] = []
        for node in _statements(tree.body):
            if isinstance(node, ast.Assert):
                asserts = True
            elif isinstance(node, (ast.Import, ast.ImportFrom)) and _imports_test_framework(node):
                return Plan()  # test code or test helpers: asserts are test assertions
            elif isinstance(node, (ast.Try, ast.TryStar)) and _catches_assertion_error(node):
                catching.append(node)
        if not asserts:
            return Plan()
        planner = cls(_called_names(catching), bool(catching))
        planner.visit(tree)
        return planner.plan

    def generic_visit(self, node: ast.AST) -> None:
        for statement in _child_statements(node):
            self.visit(statement)

    # scopes

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        is_test = _is_test_class(node)
        self._skipped += is_test
        self._class_depth_in_frame[-1] += 1
        self._classes.append(node)
        self.generic_visit(node)
        self._classes.pop()
        self._class_depth_in_frame[-1] -= 1
        self._skipped -= is_test

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        in_class = self._class_depth_in_frame[-1] > 0
        nested = any(frame.function is not None for frame in self._frames)
        is_test = _is_test_function(node.name, at_module_level=not (in_class or nested))
        self._skipped += is_test
        owner = self._classes[-1] if in_class else None
        self._frames.append(_Frame(_Function(node, owner=owner, nested=nested)))
        self._class_depth_in_frame.append(0)
        for statement in node.body:
            self.visit(statement)
        self._class_depth_in_frame.pop()
        self._frames.pop()
        self._skipped -= is_test

    visit_AsyncFunctionDef = visit_FunctionDef

    # blocks that change what an assert means

    def visit_If(self, node: ast.If) -> None:
        skipped = _is_type_checking_or_debug(node.test)
        self._skipped += skipped
        for statement in node.body:
            self.visit(statement)
        self._skipped -= skipped
        for statement in node.orelse:
            self.visit(statement)

    def visit_Try(self, node: ast.Try | ast.TryStar) -> None:
        frame = self._frames[-1]
        catching = _catches_assertion_error(node)
        frame.catching_try_depth += catching
        for statement in node.body:
            self.visit(statement)
        frame.catching_try_depth -= catching
        for handler in node.handlers:
            for statement in handler.body:
                self.visit(statement)
        for statement in [*node.orelse, *node.finalbody]:
            self.visit(statement)

    visit_TryStar = visit_Try

    def visit_For(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        loops = self._frames[-1].loops
        loops.append(id(node))
        self.generic_visit(node)
        loops.pop()

    visit_AsyncFor = visit_For
    visit_While = visit_For

    # the asserts

    def visit_Assert(self, node: ast.Assert) -> None:
        if self._skipped or _always_true(node.test):
            return
        decision = self._decide(node)
        on_line = self.plan.decisions.setdefault(node.lineno, [])
        on_line.append(decision)

    def _decide(self, node: ast.Assert) -> Decision:
        frame = self._frames[-1]
        function = frame.function
        always_fails = _always_false(node.test)
        # `assert False` marks code that must not be reached, not a bad argument: keep the
        # exception callers already see, only make it survive -O.
        exception = ("AssertionError" if always_fails
                     else "TypeError" if _is_type_check(node.test) else "ValueError")
        decision = Decision(Verdict.SAFE, exception, node, always_fails=always_fails)
        if frame.catching_try_depth:
            return _with(decision, Verdict.REPORT,
                         "a handler around it catches AssertionError, which a raise would "
                         "bypass: raise what the handler expects, or catch the new error")
        if function is not None and function.name in self._checked_calls:
            return _with(decision, Verdict.REPORT,
                         f"{function.name}() is called where AssertionError is caught in this "
                         "file: a raise would bypass that handler")
        if function is not None and function.documents_assertion_error():
            return _with(decision, Verdict.REPORT,
                         f"the docstring of {function.name}() says it raises AssertionError: "
                         "change the check and the docstring together")
        reason = self._unsafe_reason(node, frame)
        return _with(decision, Verdict.UNSAFE, reason) if reason else decision

    def _unsafe_reason(self, node: ast.Assert, frame: _Frame) -> str | None:
        function = frame.function
        if function is None or self._class_depth_in_frame[-1]:
            return "not in a function, so not an input check"
        if function.nested:
            return "in a nested function, so not an input check"
        if _always_false(node.test):
            return "always fails: marks code meant to be unreachable"
        if self._catches_assertion_error:
            return "this file catches AssertionError elsewhere"
        if not function.public:
            owner = f"{function.owner.name}." if function.owner is not None else ""
            return f"{owner}{function.name}() is private: its checks are internal invariants"
        inputs, computed = self._names_read(node, frame)
        if computed:
            names = ", ".join(f"`{name}`" for name in sorted(computed))
            return f"reads {names}, computed in the function: an internal invariant"
        if not inputs:
            return "reads no parameter of the function: an internal invariant"
        narrowed = _narrowed_attribute(node)
        if narrowed is not None:
            return (f"a check on `{narrowed}` with no message, as written to narrow its type: "
                    "state handed in, more likely than user input")
        if _reads_tensor_values(node.test):
            return ("checks tensor values: the raise keeps a device sync that -O removed and "
                    "breaks the torch.compile graph")
        return None

    def _names_read(self, node: ast.Assert, frame: _Frame) -> tuple[set[str], set[str]]:
        """(parameters the condition reads as passed in, local names it reads)."""
        function = frame.function
        if function is None:
            return set(), set()
        parameters = function.parameters
        self_parameter = function.self_parameter
        bindings = function.bindings()
        position = (node.lineno, node.col_offset)
        loops = frozenset(frame.loops)
        inputs: set[str] = set()
        computed: set[str] = set()
        for name in _names_read(node.test):
            if name == self_parameter:
                if function.name in POST_INIT_METHODS:
                    inputs.add(name)
                continue
            rebound = any(
                where < position or where_loops & loops
                for where, where_loops in bindings.get(name, [])
            )
            if name in parameters and not rebound:
                inputs.add(name)
            elif name in parameters or name in bindings:
                computed.add(name)
        return inputs, computed


def _child_statements(node: ast.AST) -> Iterator[ast.stmt]:
    """The statements directly inside a compound statement (or module), in order."""
    for name in ("body", "orelse", "finalbody"):
        block = getattr(node, name, None)
        if isinstance(block, list):
            yield from block
    for part in (*getattr(node, "handlers", ()), *getattr(node, "cases", ())):
        yield from part.body


def _statements(statements: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement, nested ones included, without entering expressions."""
    for statement in statements:
        yield statement
        yield from _statements(list(_child_statements(statement)))


def _with(decision: Decision, verdict: Verdict, reason: str) -> Decision:
    return Decision(verdict, decision.exception, decision.assertion,
                    decision.always_fails, reason)


def _names_read(expression: ast.expr) -> Iterator[str]:
    """Names the expression reads, minus those bound inside it (comprehensions, lambdas)."""
    bound: set[str] = set()
    for node in ast.walk(expression):
        if isinstance(node, ast.comprehension):
            bound.update(_target_names(node.target))
        elif isinstance(node, ast.Lambda):
            arguments = node.args
            bound.update(a.arg for a in [*arguments.posonlyargs, *arguments.args,
                                         *arguments.kwonlyargs, arguments.vararg,
                                         arguments.kwarg] if a is not None)
    for node in ast.walk(expression):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound:
            yield node.id


def _target_names(target: ast.expr) -> Iterable[str]:
    return (node.id for node in ast.walk(target) if isinstance(node, ast.Name))


def _narrowed_attribute(node: ast.Assert) -> str | None:
    """`x.y` in a message-less `assert x.y`, `x.y is not None`, `isinstance(x.y, T)`, ..."""
    if node.msg is not None:
        return None
    test = node.test
    subject: ast.expr | None = None
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        subject = test.left
    elif (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id in NARROWING_FUNCTIONS
        and test.args
    ):
        subject = test.args[0]
    elif isinstance(test, ast.Attribute):
        subject = test  # `assert algo.impl`: an Optional attribute is set
    if isinstance(subject, ast.Attribute):
        return ast.unparse(subject)
    return None


def _is_type_check(test: ast.expr) -> bool:
    """`isinstance(...)`, `not issubclass(...)`, and `and`/`or` of only such checks."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _is_type_check(test.operand)
    if isinstance(test, ast.BoolOp):
        return all(_is_type_check(value) for value in test.values)
    return (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id in TYPE_CHECK_FUNCTIONS
    )


def _always_true(test: ast.expr) -> bool:
    # `assert (x, "message")` and `assert "message"` never fail: not a check to keep.
    if isinstance(test, ast.Tuple):
        return bool(test.elts)
    return isinstance(test, ast.Constant) and bool(test.value)


def _always_false(test: ast.expr) -> bool:
    return isinstance(test, ast.Constant) and not test.value


def _reads_tensor_values(test: ast.expr) -> bool:
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in TENSOR_VALUE_FUNCTIONS
        for node in ast.walk(test)
    )


def _is_type_checking_or_debug(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id in ("TYPE_CHECKING", "__debug__")
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _is_test_function(name: str, at_module_level: bool) -> bool:
    # pytest collects `test*` functions at module level (methods only in test classes,
    # which are skipped whole: `test_step` on a LightningModule is not a test).
    # `assert_*` helpers exist to raise AssertionError.
    return (at_module_level and name.startswith("test")) or name.lstrip("_").startswith("assert")


def _is_test_class(node: ast.ClassDef) -> bool:
    if node.name.startswith("Test"):
        return True
    return any(_last_name(base).endswith("TestCase") for base in node.bases)


def _decorated_with(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    return any(_last_name(decorator) == name for decorator in node.decorator_list)


def _last_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _imports_test_framework(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        modules = [node.module or ""]
        if modules[0] == "unittest":
            modules = [f"unittest.{alias.name}" for alias in node.names]
    else:
        modules = [alias.name for alias in node.names]
    return any(
        module.split(".")[0] == "pytest"
        or (module.split(".")[0] == "unittest" and not module.startswith("unittest.mock"))
        for module in modules
    )


def _catches_assertion_error(node: ast.Try | ast.TryStar) -> bool:
    for handler in node.handlers:
        caught = handler.type
        if caught is None:
            continue
        names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
        if any(_last_name(name) == ASSERTION_ERROR for name in names):
            return True
    return False


def _called_names(tries: Sequence[ast.Try | ast.TryStar]) -> set[str]:
    """Names of the functions and methods called in the bodies of these `try`s."""
    called: set[str] = set()
    for node in tries:
        for statement in node.body:
            for inner in ast.walk(statement):
                if isinstance(inner, ast.Call):
                    name = _last_name(inner.func)
                    if name:
                        called.add(name)
    return called
