"""log1p: `torch.log(1 + x)` → `torch.log1p(x)` (TorchFix TOR106)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.test_code import identifier_words
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

from ..prefilter import calls_by_name
from .patterns import (
    INTEGER_WORDS,
    holds_call,
    in_benchmark,
    is_one,
    less_one,
    spell,
    torch_call,
    unary_torch_call,
    whole_valued,
    written_one,
)

MESSAGE = ("torch.log(1 + x) loses x when it is small: torch.log1p(x) keeps it "
           "(unsafe: the last bits of the result change)")


class Log1p(Codemod):
    """Use `torch.log1p(x)` for `torch.log(1 + x)`.

    ## What it does
    `torch.log(1 + x)` and `torch.log(x + 1)` (the literal `1` or `1.0`, through any alias
    of torch) become `torch.log1p(x)`. Where `x` holds whole numbers (built from
    `torch.arange`, `len`, sizes and integer literals, through the function's
    assignments: the log-distance of positions, or a parameter or result named for
    integers, `X_int`, `counts`), nothing is lost and it is left alone.

    ## Why
    `1 + x` rounds away what lies below the float's precision: for `x = 1e-8` in float32,
    `1 + x == 1` and the log is 0, while `log1p(x)` is `1e-8`. Such terms are common in
    losses and likelihoods (`log(1 + exp(-z))`, `log(1 + ratio)`), where the lost digits
    are the signal.

    ## Example
    ```python
    penalty = torch.log(1 + ratio)
    ```
    becomes
    ```python
    penalty = torch.log1p(ratio)
    ```

    ## Fix safety
    **Unsafe**: the result is more accurate, which means its last bits differ from what
    the code computed before (results compared bit for bit, or a test's golden values,
    change). TorchFix code: TOR106 (TorchFix reported it without a fix).
    """

    name = "log1p"
    summary = "Use torch.log1p(x) for torch.log(1 + x): accurate for small x."
    triggers = (b"log(",)
    fix_safety = "unsafe"
    codes = ("TOR106",)
    family = "numerics"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in _candidates(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        if in_benchmark(file):
            return  # see in_benchmark: a row would measure another operation
        for call in _candidates(file.tree):
            argument = unary_torch_call(file, call, "log")
            if not (isinstance(argument, ast.BinOp) and isinstance(argument.op, ast.Add)):
                continue
            if is_one(file, argument.left):
                x = argument.right
            elif is_one(file, argument.right):
                x = argument.left
            else:
                continue
            if holds_call(file, x, ("log", "log1p")):
                continue  # the inner one first; this one is decided on its own afterwards
            if whole_valued(file, x) or _names_integer_features(file, call):
                continue  # x is 0 or at least 1: `1 + x` loses nothing
            if less_one(file, x):
                continue  # x = P - 1 already: rounded as much as `1 + x` would round it
            spelled = spell(file, call, "log1p")  # type: ignore[arg-type]
            if spelled is None:
                continue
            yield Finding(call, MESSAGE, Safety.UNSAFE, (
                ReplaceNode(call.func, spelled.text), ReplaceNode(argument, file.source(x)),
                *spelled.imports))


def _names_integer_features(file: FileContext, call: ast.Call) -> bool:
    """Whether the log is assigned to a name that says it transforms integers: DLRM's
    `X_int = torch.log(torch.tensor(transposed_data[0], dtype=torch.float) + 1)` over
    Criteo's integer count features (bitorch's copy, round 45)."""
    statement = file.semantic.statement(call)
    return isinstance(statement, ast.Assign) and statement.value is call and any(
        isinstance(target, ast.Name) and set(identifier_words(target.id)) & INTEGER_WORDS
        for target in statement.targets)


def _candidates(tree: ast.Module) -> list[ast.Call]:
    return [call for call in calls_by_name(tree).get("log", ()) if torch_call(tree, call, "log")
            and isinstance(call.args[0], ast.BinOp) and isinstance(call.args[0].op, ast.Add)
            and (written_one(call.args[0].left) or written_one(call.args[0].right))]
