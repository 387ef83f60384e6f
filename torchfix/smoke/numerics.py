"""log1p, expm1, logsumexp, executed: the rewritten expressions agree with the originals
where those are accurate, keep the digits the originals lose for small inputs, and stay
finite where the original overflows. That difference is why the fixes are unsafe."""

from __future__ import annotations

from pathlib import Path

from torchfix.smoke import Scenario, expect, load_module, require_torch, rewrite

SOURCE = '''
import torch


def softplus_like(x):
    return torch.log(1 + x)


def rate(x):
    return torch.exp(x) - 1


def log_partition(logits):
    return torch.log(torch.sum(torch.exp(logits), dim=-1))
'''


def _modules(folder: Path, codemod: str):
    fixed_source = rewrite(SOURCE, codemod, unsafe_fixes=True)
    return (load_module(SOURCE, folder, f"{codemod}_before"),
            load_module(fixed_source, folder, f"{codemod}_after"), fixed_source)


def log1p_keeps_small_values(folder: Path) -> None:
    torch = require_torch()
    before, after, source = _modules(folder, "log1p")
    expect("torch.log1p(x)" in source, "torch.log(1 + x) was not rewritten")
    moderate = torch.linspace(0.1, 10.0, 50)
    expect(torch.allclose(before.softplus_like(moderate), after.softplus_like(moderate),
                          rtol=1e-6), "log1p disagrees with log(1 + x) on ordinary inputs")
    tiny = torch.tensor([1e-8, 1e-10], dtype=torch.float32)
    expect(torch.all(before.softplus_like(tiny) == 0), "float32 1 + 1e-8 no longer rounds to 1?")
    expect(torch.allclose(after.softplus_like(tiny), tiny, rtol=1e-6),
           "log1p lost the small values")


def expm1_keeps_small_values(folder: Path) -> None:
    torch = require_torch()
    before, after, source = _modules(folder, "expm1")
    expect("torch.expm1(x)" in source, "torch.exp(x) - 1 was not rewritten")
    moderate = torch.linspace(-3.0, 3.0, 50)
    expect(torch.allclose(before.rate(moderate), after.rate(moderate), rtol=1e-5, atol=1e-6),
           "expm1 disagrees with exp(x) - 1 on ordinary inputs")
    tiny = torch.tensor([1e-8, -1e-9], dtype=torch.float32)
    expect(torch.all(before.rate(tiny) == 0), "float32 exp(1e-8) - 1 is no longer 0?")
    expect(torch.allclose(after.rate(tiny), tiny, rtol=1e-6), "expm1 lost the small values")


def logsumexp_does_not_overflow(folder: Path) -> None:
    torch = require_torch()
    before, after, source = _modules(folder, "logsumexp")
    expect("torch.logsumexp(logits, dim=-1)" in source, "log(sum(exp)) was not rewritten")
    ordinary = torch.randn(4, 7, generator=torch.Generator().manual_seed(0))
    expect(torch.allclose(before.log_partition(ordinary), after.log_partition(ordinary),
                          rtol=1e-6), "logsumexp disagrees on ordinary logits")
    large = torch.tensor([[100.0, 90.0, 80.0]])
    expect(torch.isinf(before.log_partition(large)).all(), "exp(100) no longer overflows?")
    result = after.log_partition(large)
    expect(torch.isfinite(result).all() and abs(result.item() - 100.0) < 1e-3,
           "logsumexp did not return the finite log-partition")


SCENARIOS = [
    Scenario("log1p", "log1p_keeps_small_values", log1p_keeps_small_values),
    Scenario("expm1", "expm1_keeps_small_values", expm1_keeps_small_values),
    Scenario("logsumexp", "logsumexp_does_not_overflow", logsumexp_does_not_overflow),
]
