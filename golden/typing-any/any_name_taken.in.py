import typing

from sympy import Any  # a different Any


def simplify(expr: any) -> Any:
    return expr
