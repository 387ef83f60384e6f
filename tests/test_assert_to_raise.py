"""assert-to-raise helpers: generated messages survive any source text, and the `if` test
is true exactly when the assert would have failed (NaN included)."""

from __future__ import annotations

import ast
import itertools
import math

import libcst as cst
import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemods.assert_to_raise import failure_test, string_literal

_NO_CODE = cst.Module(body=[])


@given(st.text())
def test_string_literal_round_trips(text):
    literal = string_literal(text)
    assert ast.literal_eval(literal) == text
    assert not literal.startswith(("f", "F"))  # braces stay literal


@pytest.mark.parametrize(
    "text, literal",
    [
        ('expected x in ("a", "b")', "'expected x in (\"a\", \"b\")'"),
        ("expected x != 'it'", '"expected x != \'it\'"'),
        ("expected sep != '\\\\'", '"expected sep != \'\\\\\\\\\'"'),
        ("expected fmt == '{x}'", '"expected fmt == \'{x}\'"'),
    ],
)
def test_string_literal_prefers_readable_quotes(text, literal):
    assert string_literal(text) == literal


CONDITIONS = [
    "a == b", "a != b", "a is b", "a is not b", "a in c", "a not in c", "not a", "not (a < b)",
    "a < b", "a <= b", "a > b", "a >= b", "a < b < c", "a == b == c", "a and b", "a or b",
    "not (a and b)", "(a == b)", "(not a)", "isinstance(a, float)", "not isinstance(a, int)",
    "(a := b) > 0", "a < b or a is None", "-a", "a if b else c",
]
VALUES = [0, 1, 2.5, -1, math.nan, None]


def _evaluate(expression: str, names: dict[str, object]) -> bool | None:
    try:
        return bool(eval(expression, {}, dict(names)))  # the fixed expressions above
    except TypeError:
        return None  # e.g. None < 1: both forms must raise, checked below


@pytest.mark.parametrize("condition", CONDITIONS)
def test_failure_test_is_the_exact_negation(condition):
    test = _NO_CODE.code_for_node(failure_test(cst.parse_expression(condition)))
    for a, b, c in itertools.product(VALUES, VALUES, [(0, 1), [None]]):
        names = {"a": a, "b": b, "c": c}
        holds = _evaluate(condition, names)
        fails = _evaluate(test, names)
        if holds is None or fails is None:
            assert holds is None and fails is None, (condition, test, names)
        else:
            assert fails == (not holds), (condition, test, names)


@pytest.mark.parametrize(
    "condition, test",
    [
        ("a == b", "a != b"),
        ("a is not None", "a is None"),
        ("a not in c", "a in c"),
        ("not a", "a"),
        ("not (a or b)", "a or b"),
        ("a < b", "not (a < b)"),
        ("0 < a < 1", "not (0 < a < 1)"),
        ("a and b", "not (a and b)"),
        ("(x := f()) > 0", "not ((x := f()) > 0)"),
        ("(a.ok)", "not a.ok"),
        ("x.all()", "not x.all()"),
    ],
)
def test_failure_test_reads_naturally(condition, test):
    assert _NO_CODE.code_for_node(failure_test(cst.parse_expression(condition))) == test
