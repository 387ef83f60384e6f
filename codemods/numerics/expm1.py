"""expm1: `torch.exp(x) - 1` → `torch.expm1(x)` (TorchFix TOR107)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

from ..prefilter import calls_by_name
from .patterns import (
    holds_call,
    in_benchmark,
    is_one,
    spell,
    torch_call,
    unary_torch_call,
    whole_valued,
    written_one,
)

MESSAGE = ("torch.exp(x) - 1 loses x when it is small: torch.expm1(x) keeps it "
           "(unsafe: the last bits of the result change)")


class Expm1(Codemod):
    """Use `torch.expm1(x)` for `torch.exp(x) - 1`.

    ## What it does
    `torch.exp(x) - 1` (the literal `1` or `1.0`, through any alias of torch) becomes
    `torch.expm1(x)`.

    ## Why
    For small `x`, `exp(x)` is `1 + x` rounded to the float's precision, and subtracting
    1 leaves only the rounding: in float32, `exp(1e-8) - 1` is 0, `expm1(1e-8)` is
    `1e-8`. It shows up in ELU-like activations, log-normal and Poisson rates, and
    Box-Cox transforms.

    ## Example
    ```python
    rate = torch.exp(log_rate) - 1
    ```
    becomes
    ```python
    rate = torch.expm1(log_rate)
    ```

    ## Fix safety
    **Unsafe**: more accurate results differ in their last bits from the old ones.
    TorchFix code: TOR107 (TorchFix reported it without a fix, suggesting
    `torch.special.expm1`, the same function).
    """

    name = "expm1"
    summary = "Use torch.expm1(x) for torch.exp(x) - 1: accurate for small x."
    triggers = (b"exp(",)
    fix_safety = "unsafe"
    codes = ("TOR107",)
    family = "numerics"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {node.lineno for node in _candidates(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        if in_benchmark(file):
            return  # see in_benchmark: a row would measure another operation
        for node in _candidates(file.tree):
            if not is_one(file, node.right):
                continue
            x = unary_torch_call(file, node.left, "exp")
            if x is None or holds_call(file, x, ("exp", "expm1")) or whole_valued(file, x):
                continue  # whole x: exp(x) - 1 cancels nothing (0 exactly, or above e - 1)
            if _large_constant(x):
                continue  # `torch.full((heads,), 1.)`: a fixed x far from 0 loses nothing
            if _complex_result(file, node):
                continue  # see _complex_result
            spelled = spell(file, node.left, "expm1")  # type: ignore[arg-type]
            if spelled is None:
                continue
            yield Finding(node, MESSAGE, Safety.UNSAFE, (
                ReplaceNode(node, f"{spelled.text}({file.source(x)})"), *spelled.imports))


def _complex_result(file: FileContext, node: ast.expr) -> bool:
    """Whether the statement takes the real or imaginary part of what the difference
    feeds (`torch.mean((torch.exp(lr) - 1) / lr, axis=-1).real`): the values are complex.
    torchfsm's ETDRK coefficients (round 51) average over a contour of complex points kept
    away from 0 on purpose, where expm1 gains nothing, and complex expm1 is newer than
    the torch 2.0 the project needs."""
    model = file.semantic
    for ancestor in model.ancestors(node):
        if isinstance(ancestor, ast.stmt):
            return False
        if isinstance(ancestor, ast.Attribute) and ancestor.attr in ("real", "imag"):
            return True
        if isinstance(ancestor, ast.Call) and (model.qualified_name(ancestor.func) or "") in (
                "torch.real", "torch.imag", "torch.view_as_real"):
            return True
    return False


def _candidates(tree: ast.Module) -> list[ast.BinOp]:
    if "exp" not in calls_by_name(tree):
        return []
    return [node for node in nodes_of(tree, ast.BinOp) if isinstance(node.op, ast.Sub)
            and written_one(node.right) and torch_call(tree, node.left, "exp")]


# exp(x) - 1 loses about eps / |x| of its value: below 1e-5 relative in float32 from here.
LARGE_CONSTANT = 0.01


def _large_constant(x: ast.expr) -> bool:
    """Whether x is a number written out, alone or filling a tensor (`torch.full(shape,
    1.)`, `torch.tensor(1.)`, `torch.ones(n)`), at least LARGE_CONSTANT from 0:
    invariant-point-attention's and igfold's `torch.log(torch.exp(torch.full((heads,),
    1.)) - 1.)`, an initial value (round 30's reviewers: the rewrite gains nothing
    there)."""
    if isinstance(x, ast.Call) and x.args and isinstance(x.func, ast.Attribute | ast.Name):
        called = x.func.attr if isinstance(x.func, ast.Attribute) else x.func.id
        if called in ("ones", "ones_like"):
            return True  # igfold-pytorch's `torch.exp(torch.ones(n_head)) - 1.0` (round 41)
        if called == "full" and len(x.args) >= 2:
            x = x.args[1]
        elif called == "tensor":
            x = x.args[0]
    if isinstance(x, ast.UnaryOp) and isinstance(x.op, ast.USub | ast.UAdd):
        x = x.operand  # the distance from 0 is the same either side
    return (isinstance(x, ast.Constant) and type(x.value) in (int, float)
            and abs(x.value) >= LARGE_CONSTANT)
