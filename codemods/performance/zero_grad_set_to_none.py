"""zero-grad-set-to-none: `zero_grad(set_to_none=False)` writes zeros (TorchFix TOR402)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.rewrite.contract import Codemod, FileContext, Finding, RemoveKeyword, Safety


class ZeroGradSetToNone(Codemod):
    """Drop `set_to_none=False` from `zero_grad()`: gradients become None instead of zeros.

    ## What it does
    `optimizer.zero_grad(set_to_none=False)` and `model.zero_grad(set_to_none=False)`
    become `zero_grad()`, whose default (since torch 2.0) frees the gradients instead of
    writing zeros into them.

    ## Why
    Writing zeros is a kernel launch and a memory write per parameter every step, and
    keeps the gradient memory allocated between steps; None costs nothing, and the next
    backward allocates exactly what it needs. PyTorch's profiler reports the zeroing as a
    pattern to fix.

    ## Example
    ```python
    optimizer.zero_grad(set_to_none=False)
    ```
    becomes
    ```python
    optimizer.zero_grad()
    ```

    ## Fix safety
    **Unsafe**: code that reads `.grad` after `zero_grad()` and before the next backward
    (gradient logging, a manual `p.grad.add_(...)`, parameters that get no gradient in a
    step) finds None where it found zeros, and optimizers skip parameters whose gradient
    is None (momentum then does not decay for them). On torch older than 2.0 the default
    was False: there the fix changes nothing. Off by default, as in TorchFix (TOR4 codes
    were opt-in there): select it with `--select zero-grad-set-to-none` or TOR402.
    """

    name = "zero-grad-set-to-none"
    summary = "Drop zero_grad(set_to_none=False): freeing gradients beats writing zeros."
    triggers = (b"set_to_none",)
    fix_safety = "unsafe"
    enabled_by_default = False
    codes = ("TOR402",)
    family = "performance"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in _calls(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        for call in _calls(file.tree):
            keyword = next((k for k in call.keywords if k.arg == "set_to_none"), None)
            if keyword is None or not (
                    isinstance(keyword.value, ast.Constant) and keyword.value.value is False):
                continue
            yield Finding(call, "zero_grad(set_to_none=False) writes zeros into every "
                          "gradient: the default (None) is cheaper, if nothing reads .grad "
                          "before the next backward", Safety.UNSAFE,
                          (RemoveKeyword(call, "set_to_none"),))


def _calls(tree: ast.Module) -> list[ast.Call]:
    return [call for call in nodes_of(tree, ast.Call)
            if isinstance(call.func, ast.Attribute) and call.func.attr == "zero_grad"]
