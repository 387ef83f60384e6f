"""lr-scheduler-verbose: LR schedulers' `verbose=` is a TypeError since torch 2.7."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.rewrite.contract import Codemod, FileContext, Finding, RemoveKeyword, Safety

from ..prefilter import torch_calls

PREFIX = "torch.optim.lr_scheduler."
DEPRECATED_IN = (2, 2)
# The schedulers of torch.optim.lr_scheduler that took `verbose=`.
SCHEDULERS = ("LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR",
              "ExponentialLR", "SequentialLR", "PolynomialLR", "CosineAnnealingLR",
              "ChainedScheduler", "ReduceLROnPlateau", "CyclicLR",
              "CosineAnnealingWarmRestarts", "OneCycleLR", "LRScheduler", "_LRScheduler")


class LrSchedulerVerbose(Codemod):
    """Drop the `verbose=` argument of torch's LR schedulers, removed in torch 2.7.

    ## What it does
    `StepLR(optimizer, 30, verbose=False)` (any scheduler of `torch.optim.lr_scheduler`,
    `ReduceLROnPlateau` included) becomes `StepLR(optimizer, 30)`. `verbose=True` is
    reported: its messages are gone, so log `scheduler.get_last_lr()` where you need it.

    ## Why
    torch 2.2 deprecated the argument and torch 2.7 removed it: passing it at all is a
    `TypeError` on the torch of today, for the default value `False` too.

    ## Example
    ```python
    scheduler = ReduceLROnPlateau(optimizer, mode="min", patience=5, verbose=False)
    ```
    becomes
    ```python
    scheduler = ReduceLROnPlateau(optimizer, mode="min", patience=5)
    ```

    ## Fix safety
    Dropping `verbose=False` is **safe**: it was the default on every torch that took it.
    A value that is not a literal (`verbose=args.verbose`) is dropped as an **unsafe**
    fix: where it was true on an older torch, the scheduler stops printing. `verbose=True`
    is reported. `verbose` passed positionally is left alone. A project whose metadata
    admits no torch from 2.2 on (`torch==1.9.0`) is left alone: `verbose` works on every
    torch it runs.
    """

    name = "lr-scheduler-verbose"
    summary = "Drop LR schedulers' verbose= argument: a TypeError since torch 2.7."
    triggers = (b"verbose=",)
    fix_safety = "safe, unsafe"
    family = "migrations"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in _candidates(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        if file.never_deprecated(DEPRECATED_IN, cls):
            return  # torch-tensornet's `torch==1.9.0` (round 44): verbose works there
        model = file.semantic
        for call in _candidates(file.tree):
            keyword = next(k for k in call.keywords if k.arg == "verbose")
            meaning = model.qualified_name(call.func)
            if meaning is None or not meaning.startswith(PREFIX):
                continue
            scheduler = meaning.rsplit(".", 1)[-1]
            value = model.literal(keyword.value)
            fix = (RemoveKeyword(call, "verbose"),)
            if value is False:
                yield Finding(call, f"{scheduler}(verbose=...) is a TypeError since torch "
                              "2.7: drop it (False was the default)", Safety.SAFE, fix)
            elif value is True:
                yield Finding(call, f"{scheduler}(verbose=True) is a TypeError since torch "
                              "2.7: drop it and log scheduler.get_last_lr() yourself",
                              Safety.MANUAL)
            else:
                yield Finding(call, f"{scheduler}(verbose=...) is a TypeError since torch "
                              "2.7: drop it (where it was true, the scheduler stops "
                              "printing)", Safety.UNSAFE, fix)


def _candidates(tree: ast.Module) -> list[ast.Call]:
    return [call for call in torch_calls(tree, SCHEDULERS)
            if any(k.arg == "verbose" for k in call.keywords)]
