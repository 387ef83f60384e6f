"""dataloader-workers: a DataLoader that loads in the training process (TorchFix TOR401)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.rewrite.contract import Codemod, FileContext, Finding, Safety

from ..prefilter import torch_calls

NUM_WORKERS_POSITION = 5  # DataLoader(dataset, batch_size, shuffle, sampler, batch_sampler, ...)


class DataloaderWorkers(Codemod):
    """Report a `DataLoader` without worker processes.

    ## What it does
    Reports `torch.utils.data.DataLoader(...)` calls that pass no `num_workers`, or
    `num_workers=0`: the data is then loaded and transformed in the training process,
    between steps, while the GPU waits.

    ## Why
    For image and audio pipelines this is often the largest avoidable cost of a training
    run; PyTorch's profiler reports it as the synchronized data-loader pattern.

    ## Example
    ```python
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    ```
    is reported; a person chooses the number of workers (it depends on the machine, and
    some datasets are not safe to load from several processes).

    ## Fix safety
    No automatic fix: the right number of workers is not in the code, and workers change
    how datasets with state, random augmentation seeds and CUDA in `__getitem__` behave.
    A `num_workers` that is not a literal is left alone. Off by default, as in TorchFix
    (TOR4 codes were opt-in there): select it with `--select dataloader-workers` or TOR401.
    """

    name = "dataloader-workers"
    summary = "Report DataLoaders without num_workers: data then loads in the training process."
    triggers = (b"DataLoader",)
    fix_safety = "report"
    enabled_by_default = False
    codes = ("TOR401",)
    family = "data"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in _candidates(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        for call in _candidates(file.tree):
            if any(isinstance(a, ast.Starred) for a in call.args) or any(
                    k.arg is None for k in call.keywords):
                continue
            workers = next((k.value for k in call.keywords if k.arg == "num_workers"), None)
            if workers is None and len(call.args) > NUM_WORKERS_POSITION:
                workers = call.args[NUM_WORKERS_POSITION]
            zero = isinstance(workers, ast.Constant) and workers.value == 0
            if workers is not None and not zero and (  # a module constant NUM_WORKERS = 0
                    not isinstance(workers, ast.Name) or model.literal(workers) != 0):
                continue
            if model.qualified_name(call.func) not in (
                    "torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader"):
                continue
            yield Finding(call, "this DataLoader loads data in the training process: pass "
                          "num_workers > 0 (and pin_memory=True for CUDA)", Safety.MANUAL)


def _candidates(tree: ast.Module) -> list[ast.Call]:
    return torch_calls(tree, ("DataLoader",))
