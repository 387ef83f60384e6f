import typing

from sympy import Any  # a different Any


def simplify(expr: typing.Any) -> Any:
    return expr
