"""A function's McCabe complexity as ruff's C901 (`complex-structure`) counts it.

One plus the decision points of the body: each `if` and `elif`, loop, `except` handler,
`try`'s `else`, `match` case (an irrefutable last case aside) and nested function; boolean
operators, comprehensions and asserts are not counted. A codemod that turns statements
into `if`s reads it to keep a function under the project's `max-complexity`.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

# `try` blocks: `except*` (`ast.TryStar`) from Python 3.11 on
_TRIES: tuple[type[ast.stmt], ...] = tuple(
    kind for kind in (ast.Try, getattr(ast, "TryStar", None)) if kind is not None)


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return 1 + _decisions(function.body)


def _decisions(statements: Sequence[ast.stmt]) -> int:
    count = 0
    for statement in statements:
        if isinstance(statement, ast.If):
            # `elif` is an `if` alone in `orelse`: counted there, as ruff counts it
            count += 1 + _decisions(statement.body) + _decisions(statement.orelse)
        elif isinstance(statement, (ast.For, ast.AsyncFor, ast.While)):
            count += 1 + _decisions(statement.body) + _decisions(statement.orelse)
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            count += _decisions(statement.body)
        elif isinstance(statement, _TRIES):
            count += _decisions(statement.body) + _decisions(statement.orelse) + \
                _decisions(statement.finalbody) + bool(statement.orelse)  # type: ignore[attr-defined]
            count += sum(1 + _decisions(handler.body)  # type: ignore[attr-defined]
                         for handler in statement.handlers)
        elif isinstance(statement, ast.Match):
            count += sum(1 + _decisions(case.body) for case in statement.cases)
            last = statement.cases[-1] if statement.cases else None
            if last is not None and last.guard is None and _irrefutable(last.pattern):
                count -= 1
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            count += 1 + _decisions(statement.body)
        elif isinstance(statement, ast.ClassDef):
            count += _decisions(statement.body)
    return count


def _irrefutable(pattern: ast.pattern) -> bool:
    if isinstance(pattern, ast.MatchAs):
        return pattern.pattern is None or _irrefutable(pattern.pattern)
    if isinstance(pattern, ast.MatchOr):
        return any(_irrefutable(option) for option in pattern.patterns)
    return False
