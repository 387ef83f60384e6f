"""hoist-mask-constant, executed: masked logits are bit for bit the same before and after
the rewrite (float32, float16, bfloat16; CPU always, CUDA when present), and the rewritten
code allocates fewer tensors per call."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from torchfix.smoke import (
    Scenario,
    expect,
    load_module,
    require_cuda,
    require_torch,
    rewrite,
)

CODEMOD = "hoist-mask-constant"

# Action masking in an RL policy, and attention masking in a transformer block (the
# two-statement form: a local tensor used only as a fill value).
SNIPPET = '''
import math

import torch
from torch import nn


class MaskedPolicy(nn.Module):
    def __init__(self, obs_dim=12, n_actions=9, dtype=torch.float32):
        super().__init__()
        self.body = nn.Linear(obs_dim, 32, dtype=dtype)
        self.head = nn.Linear(32, n_actions, dtype=dtype)

    def forward(self, obs, action_mask):
        logits = self.head(torch.tanh(self.body(obs)))
        return logits.masked_fill(~action_mask, torch.tensor(-1e8, device=logits.device))


class CausalSelfAttention(nn.Module):
    def __init__(self, dim=16, heads=2, dtype=torch.float32):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim, dtype=dtype)

    def forward(self, x, pad_mask):
        b, t, d = x.shape
        q, k, _ = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.heads)
        causal = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(causal, torch.tensor(float("-inf"), device=scores.device))
        pad_value = torch.tensor(
            torch.finfo(scores.dtype).min, dtype=scores.dtype, device=scores.device
        )
        return scores.masked_fill(pad_mask[:, None, None, :], pad_value)
'''

EXPECTED_LINES = (
    "return logits.masked_fill(~action_mask, -1e8)",
    'scores = scores.masked_fill(causal, float("-inf"))',
    "return scores.masked_fill(pad_mask[:, None, None, :], torch.finfo(scores.dtype).min)",
)
DTYPES = ("float32", "float16", "bfloat16")
# Every new tensor's storage comes from one of these (addmm's output aside, the same
# before and after); a 0-dim tensor value is read back to the host by the other.
ALLOCATING_OPS = frozenset({"aten::empty", "aten::empty_strided"})
READ_BACK_OP = "aten::_local_scalar_dense"


def _versions(folder: Path) -> tuple[ModuleType, ModuleType]:
    fixed_source = rewrite(SNIPPET, CODEMOD)
    for line in EXPECTED_LINES:
        expect(line in fixed_source, f"the rewrite did not produce `{line}`")
    expect("pad_value =" not in fixed_source, "the pad_value tensor local was not dropped")
    return load_module(SNIPPET, folder, "masking_before"), load_module(fixed_source, folder,
                                                                      "masking_after")


def _inputs(torch: Any, device: str, dtype: Any) -> dict[str, tuple[Any, ...]]:
    generator = torch.Generator().manual_seed(0)
    obs = torch.randn(64, 12, generator=generator).to(device, dtype)
    action_mask = (torch.rand(64, 9, generator=generator) > 0.4).to(device)
    action_mask[0] = False  # a state with no legal action at all
    x = torch.randn(4, 7, 16, generator=generator).to(device, dtype)
    pad_mask = torch.zeros(4, 7, dtype=torch.bool)
    pad_mask[1, 5:] = True
    pad_mask[2, :] = True  # a fully padded sequence
    return {"MaskedPolicy": (obs, action_mask), "CausalSelfAttention": (x, pad_mask.to(device))}


def _models(torch: Any, module: ModuleType, device: str, dtype: Any) -> dict[str, Any]:
    models = {}
    for name in ("MaskedPolicy", "CausalSelfAttention"):
        torch.manual_seed(0)  # the same weights in both versions
        models[name] = getattr(module, name)(dtype=dtype).to(device)
    return models


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "value", call()
    except RuntimeError as exc:  # e.g. -1e8 does not fit float16, before and after
        return "error", str(exc).splitlines()[0]


def _bits(torch: Any, tensor: Any) -> Any:
    as_int = {2: torch.int16, 4: torch.int32, 8: torch.int64}[tensor.element_size()]
    return tensor.detach().contiguous().view(as_int)


def _identical(torch: Any, before: Any, after: Any) -> bool:
    return (
        before.dtype == after.dtype
        and before.shape == after.shape
        and torch.equal(before.isnan(), after.isnan())
        and torch.equal(before.isinf(), after.isinf())
        and torch.equal(_bits(torch, before), _bits(torch, after))
    )


def _check_identical(torch: Any, folder: Path, device: str) -> None:
    original, fixed = _versions(folder)
    for dtype_name in DTYPES:
        dtype = getattr(torch, dtype_name)
        inputs = _inputs(torch, device, dtype)
        before_models = _models(torch, original, device, dtype)
        after_models = _models(torch, fixed, device, dtype)
        for name, args in inputs.items():
            with torch.no_grad():
                before = _outcome(lambda model=before_models[name], a=args: model(*a))
                after = _outcome(lambda model=after_models[name], a=args: model(*a))
            where = f"{name} on {device} in {dtype_name}"
            expect(before[0] == after[0], f"{where}: {before[0]} before, {after[0]} after")
            if before[0] == "error":
                expect(before[1] == after[1], f"{where}: raised {before[1]!r} before but "
                                              f"{after[1]!r} after")
                continue
            expect(_identical(torch, before[1], after[1]),
                   f"{where}: the masked logits differ after the rewrite")
            if name == "CausalSelfAttention":
                expect(bool(before[1].isinf().any()), f"{where}: no position was masked")


def allocations_per_call(
    torch: Any, model: Any, args: tuple[Any, ...], calls: int = 8
) -> tuple[float, float]:
    """(tensor allocations, host read-backs) per forward call, from the profiler."""
    from torch.profiler import ProfilerActivity, profile

    with torch.no_grad():
        model(*args)  # warm up
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(calls):
                model(*args)
    names = [event.name for event in prof.events()]
    allocations = sum(1 for name in names if name in ALLOCATING_OPS)
    return allocations / calls, names.count(READ_BACK_OP) / calls


def masked_logits_identical_cpu(folder: Path) -> None:
    _check_identical(require_torch(), folder, "cpu")


def fewer_allocations_cpu(folder: Path) -> None:
    torch = require_torch()
    original, fixed = _versions(folder)
    dtype = torch.float32  # float16 raises on -1e8 in the policy, before and after
    inputs = _inputs(torch, "cpu", dtype)
    before_models = _models(torch, original, "cpu", dtype)
    after_models = _models(torch, fixed, "cpu", dtype)
    for name, args in inputs.items():
        allocated_before, read_before = allocations_per_call(torch, before_models[name], args)
        allocated_after, read_after = allocations_per_call(torch, after_models[name], args)
        expect(allocated_after < allocated_before,
               f"{name}: {allocated_after} allocations per call after the rewrite, "
               f"{allocated_before} before")
        expect(read_before > 0 and read_after == 0,
               f"{name}: {read_after} value read-backs per call after the rewrite, "
               f"{read_before} before")


def masked_logits_identical_cuda(folder: Path) -> None:
    torch = require_cuda()
    _check_identical(torch, folder, "cuda")
    original, fixed = _versions(folder)
    for dtype_name in ("float32", "bfloat16"):
        dtype = getattr(torch, dtype_name)
        inputs = _inputs(torch, "cuda", dtype)
        before_models = _models(torch, original, "cuda", dtype)
        after_models = _models(torch, fixed, "cuda", dtype)
        for name, args in inputs.items():
            before = cuda_allocations_per_call(torch, before_models[name], args)
            after = cuda_allocations_per_call(torch, after_models[name], args)
            expect(after < before, f"{name} in {dtype_name}: {after} CUDA allocations per "
                                   f"call after the rewrite, {before} before")


def cuda_allocations_per_call(torch: Any, model: Any, args: tuple[Any, ...],
                              calls: int = 8) -> float:
    """Caching-allocator allocations per forward call (device constants included)."""
    with torch.no_grad():
        model(*args)
        torch.cuda.synchronize()
        start = torch.cuda.memory_stats()["allocation.all.allocated"]
        for _ in range(calls):
            model(*args)
        torch.cuda.synchronize()
        end = torch.cuda.memory_stats()["allocation.all.allocated"]
    return (end - start) / calls


SCENARIOS = [
    Scenario(CODEMOD, "masked_logits_identical_cpu", masked_logits_identical_cpu),
    Scenario(CODEMOD, "fewer_allocations_cpu", fewer_allocations_cpu),
    Scenario(CODEMOD, "masked_logits_identical_cuda", masked_logits_identical_cuda,
             needs_cuda=True),
]
