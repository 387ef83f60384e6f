"""require-grad-typo: `x.require_grad = ...` sets nothing torch reads (TorchFix TOR002)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

TYPO = "require_grad"


class RequireGradTypo(Codemod):
    """Fix the `require_grad` typo: torch's flag is `requires_grad`.

    ## What it does
    Renames the attribute in assignments such as `param.require_grad = False` to
    `requires_grad`.

    ## Why
    Tensors accept any attribute, so `param.require_grad = False` raises nothing and
    freezes nothing: the parameter keeps training, which shows up (if at all) as a model
    that fine-tunes layers it should not, or as memory spent on gradients nobody wanted.

    ## Example
    ```python
    for param in backbone.parameters():
        param.require_grad = False
    ```
    becomes
    ```python
    for param in backbone.parameters():
        param.requires_grad = False
    ```

    ## Fix safety
    The fix is what the code says it wants, so it is **safe**, with one exception: where
    the same file also reads `.require_grad` (an attribute of a class of your own, spelled
    that way on purpose), the assignment is only reported. TorchFix code: TOR002.
    """

    name = "require-grad-typo"
    summary = "Fix `x.require_grad = ...` (a no-op typo) to `x.requires_grad = ...`."
    triggers = (TYPO.encode(),)
    fix_safety = "safe"
    codes = ("TOR002",)
    family = "correctness"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {node.lineno for node in nodes_of(tree, ast.Attribute) if node.attr == TYPO}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        attributes = [node for node in nodes_of(file.tree, ast.Attribute) if node.attr == TYPO]
        read = any(isinstance(node.ctx, ast.Load) for node in attributes)
        for node in attributes:
            if not isinstance(node.ctx, ast.Store):
                continue
            if read:
                yield Finding(node, "`.require_grad` is also read in this file: if it is not "
                              "an attribute of your own, torch's flag is `requires_grad`",
                              Safety.MANUAL)
                continue
            yield Finding(node, "`require_grad` is a typo: torch reads `requires_grad`, so "
                          "this assignment changes nothing", Safety.SAFE,
                          (ReplaceNode(node, f"{file.source(node.value)}.requires_grad"),))
