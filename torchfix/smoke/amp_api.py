"""amp-api, executed: the rewritten training code no longer warns, and autocast, the custom
autograd decorators and GradScaler still do what the torch.cuda.amp / torch.cpu.amp
versions did (on CPU everywhere; with real float16 scaling on a CUDA device)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from torchfix.smoke import (
    Scenario,
    ScenarioFailed,
    expect,
    load_module,
    require_cuda,
    require_torch,
    rewrite,
)

CODEMOD = "amp-api"

# A mixed-precision train step in the style of a Lightning module's manual optimisation,
# with a custom autograd Function whose forward must run in float32.
TRAINER = '''
import torch
from torch import nn
from torch.cuda.amp import GradScaler, autocast, custom_bwd, custom_fwd


class Float32Head(torch.autograd.Function):
    @staticmethod
    @custom_fwd(cast_inputs=torch.float32)
    def forward(ctx, features, weight):
        ctx.save_for_backward(features, weight)
        return features @ weight.t()

    @staticmethod
    @custom_bwd
    def backward(ctx, grad):
        features, weight = ctx.saved_tensors
        return grad @ weight, grad.t() @ features


class Classifier(nn.Module):
    def __init__(self, dim=16, classes=4):
        super().__init__()
        self.hidden = nn.Linear(dim, 32)
        self.head = nn.Parameter(torch.randn(classes, 32) * 0.1)

    def forward(self, x):
        features = torch.relu(self.hidden(x))
        return features, Float32Head.apply(features, self.head)


def make_scaler(use_amp):
    return GradScaler(enabled=use_amp)


def autocast_matmul(a, b, dtype):
    with autocast(dtype=dtype):
        return a @ b


def train_step(model, optimizer, scaler, x, y, use_amp):
    optimizer.zero_grad(set_to_none=True)
    with autocast(use_amp):
        features, logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
    scaled = scaler.scale(loss)
    scaled.backward()
    scaler.step(optimizer)
    scaler.update()
    return loss.detach(), scaled.detach(), features.dtype, logits.dtype
'''

# CPU inference and a scaled CPU step, through `import torch.cpu.amp`.
CPU_TRAINER = '''
import torch
import torch.cpu.amp


def cpu_matmul(a, b):
    with torch.cpu.amp.autocast():
        return a @ b


def cpu_scaled_step(model, optimizer, x, y):
    scaler = torch.cpu.amp.GradScaler(init_scale=2.0**10)
    optimizer.zero_grad(set_to_none=True)
    with torch.cpu.amp.autocast(dtype=torch.bfloat16):
        loss = ((model(x).float() - y) ** 2).mean()
    scaled = scaler.scale(loss)
    scaled.backward()
    scaler.step(optimizer)
    scaler.update()
    return loss.detach(), scaled.detach(), scaler.get_scale()
'''

# A module alias, half migrated by hand: autocast already names its device the torch.amp
# way (so the original fails as soon as it runs: torch.cuda.amp.autocast has no
# device_type), GradScaler does not.
ALIAS_TRAINER = '''
import torch
import torch.cuda.amp as torch_amp


def make_scaler(use_amp):
    return torch_amp.GradScaler(enabled=use_amp)


def cpu_matmul(a, b):
    with torch_amp.autocast(device_type="cpu", dtype=torch.bfloat16):
        return a @ b


def cuda_matmul(a, b):
    with torch_amp.autocast(device_type="cuda", dtype=torch.float16):
        return a @ b
'''

# A model whose block autocasts itself, run by a caller under its own autocast with
# another dtype (open-metric-learning's ViT blocks under its float32 `inference()`).
NESTED_MODEL = '''
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(64, 16)

    def forward(self, x):
        with torch.cpu.amp.autocast():
            return self.proj(x)
'''

DEPRECATIONS = (FutureWarning, DeprecationWarning)


def _rewrite(source: str) -> str:
    # The scenarios need every replacement, whatever torch the folder they run in pins.
    return rewrite(source, CODEMOD, options={"min-torch": "2.4"})


@contextmanager
def _recorded_warnings() -> Iterator[list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught


@contextmanager
def _deprecations_as_errors() -> Iterator[None]:
    # CUDA-less machines warn that CUDA autocast/GradScaler disable themselves
    # (UserWarning); only deprecations must be gone.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for category in DEPRECATIONS:
            warnings.simplefilter("error", category)
        yield


def _amp_deprecations(caught: list[warnings.WarningMessage]) -> list[str]:
    return [
        str(warning.message) for warning in caught
        if issubclass(warning.category, DEPRECATIONS)
        and ("torch.cuda.amp" in str(warning.message) or "torch.cpu.amp" in str(warning.message))
    ]


def _versions(folder: Path) -> tuple[ModuleType, ModuleType, ModuleType, ModuleType, str, str]:
    """The original and rewritten trainers; the originals load while warnings are
    recorded elsewhere, so they are loaded here under "ignore"."""
    fixed_source = _rewrite(TRAINER)
    fixed_cpu_source = _rewrite(CPU_TRAINER)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        original = load_module(TRAINER, folder, "amp_trainer_before")
        original_cpu = load_module(CPU_TRAINER, folder, "amp_cpu_before")
    fixed = load_module(fixed_source, folder, "amp_trainer_after")
    fixed_cpu = load_module(fixed_cpu_source, folder, "amp_cpu_after")
    return original, fixed, original_cpu, fixed_cpu, fixed_source, fixed_cpu_source


def _model_and_data(torch: Any, module: ModuleType, device: str) -> tuple[Any, ...]:
    torch.manual_seed(0)
    model = module.Classifier().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(8, 16, device=device)
    y = torch.randint(0, 4, (8,), device=device)
    return model, optimizer, x, y


def _parameters(model: Any) -> list[Any]:
    return [parameter.detach().clone() for parameter in model.parameters()]


def _quietly(call: Callable[[], Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


def no_deprecation_warnings(folder: Path) -> None:
    """The original warns (FutureWarning) when it loads and trains; the rewrite, run with
    deprecation warnings as errors, loads and trains without one."""
    torch = require_torch()
    fixed_source = _rewrite(TRAINER)
    fixed_cpu_source = _rewrite(CPU_TRAINER)
    for needle in ('autocast("cuda", enabled=use_amp)', 'GradScaler("cuda", enabled=use_amp)',
                   '@custom_fwd(device_type="cuda", cast_inputs=torch.float32)',
                   '@custom_bwd(device_type="cuda")', "from torch.amp import"):
        expect(needle in fixed_source, f"the rewrite lacks {needle!r}")
    expect('torch.amp.autocast("cpu", dtype=torch.bfloat16)' in fixed_cpu_source
           and "import torch.cpu.amp" not in fixed_cpu_source,
           "the torch.cpu.amp trainer was not moved to torch.amp")

    with _recorded_warnings() as caught:
        original = load_module(TRAINER, folder, "amp_trainer_before")
        original_cpu = load_module(CPU_TRAINER, folder, "amp_cpu_before")
        _train_once(torch, original, original_cpu)
    before = _amp_deprecations(caught)
    expect(len(set(before)) >= 6, f"the original should warn about torch.cuda.amp/torch.cpu.amp "
                             f"(custom_fwd, custom_bwd, GradScaler, autocast, cpu); got {before}")

    with _deprecations_as_errors():
        try:
            fixed = load_module(fixed_source, folder, "amp_trainer_after")
            fixed_cpu = load_module(fixed_cpu_source, folder, "amp_cpu_after")
            _train_once(torch, fixed, fixed_cpu)
        except DEPRECATIONS as warning:
            raise ScenarioFailed(f"the rewritten code still warns: {warning}") from warning


def _train_once(torch: Any, trainer: ModuleType, cpu_trainer: ModuleType) -> None:
    model, optimizer, x, y = _model_and_data(torch, trainer, "cpu")
    trainer.train_step(model, optimizer, trainer.make_scaler(True), x, y, True)
    cpu_trainer.cpu_matmul(torch.randn(4, 4), torch.randn(4, 4))
    cpu_model = torch.nn.Linear(4, 1)
    cpu_trainer.cpu_scaled_step(cpu_model, torch.optim.SGD(cpu_model.parameters(), lr=0.1),
                                torch.randn(8, 4), torch.randn(8, 1))


def cpu_autocast_bfloat16(folder: Path) -> None:
    """torch.cpu.amp.autocast() → torch.amp.autocast("cpu"): the matmul still runs in
    bfloat16, with the same result."""
    torch = require_torch()
    _, _, original_cpu, fixed_cpu, _, _ = _versions(folder)
    a, b = torch.randn(32, 64), torch.randn(64, 16)
    before = _quietly(lambda: original_cpu.cpu_matmul(a, b))
    after = fixed_cpu.cpu_matmul(a, b)
    expect(after.dtype == torch.bfloat16, f"cpu autocast produced {after.dtype}, not bfloat16")
    expect(torch.equal(before, after), "cpu autocast results differ from the original's")
    outside = a @ b
    expect(outside.dtype == torch.float32, "autocast leaked out of its region")


def grad_scaler_steps_optimizer(folder: Path) -> None:
    """A CPU GradScaler really scales (torch.cpu.amp.GradScaler → torch.amp.GradScaler
    ("cpu")); the CUDA one disables itself without CUDA exactly as before; both step the
    optimizer to the same parameters as the original code."""
    torch = require_torch()
    original, fixed, original_cpu, fixed_cpu, _, _ = _versions(folder)

    results = []
    for module in (original_cpu, fixed_cpu):
        torch.manual_seed(0)
        model = torch.nn.Linear(4, 1)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        x, y = torch.randn(8, 4), torch.randn(8, 1)
        start = _parameters(model)
        loss, scaled, scale = _quietly(lambda m=module, mo=model, o=optimizer, x=x, y=y:
                                       m.cpu_scaled_step(mo, o, x, y))
        expect(torch.allclose(scaled, loss * 2.0**10), f"loss was not scaled by 1024: "
                                                      f"{scaled.item()} vs {loss.item()}")
        expect(scale == 2.0**10, f"scale after one finite step should stay 1024, got {scale}")
        expect(any(not torch.equal(p, q) for p, q in zip(start, _parameters(model), strict=True)),
               "the CPU scaler step did not update the parameters")
        results.append(_parameters(model))
    expect(all(torch.equal(p, q) for p, q in zip(*results, strict=True)),
           "the rewritten CPU scaled step ends at different parameters")

    cuda_available = torch.cuda.is_available()
    states = []
    for module in (original, fixed):
        scaler = _quietly(lambda m=module: m.make_scaler(True))
        expect(scaler.is_enabled() == cuda_available,
               f"GradScaler('cuda').is_enabled() is {scaler.is_enabled()} with CUDA "
               f"{'available' if cuda_available else 'unavailable'}")
        disabled = _quietly(lambda m=module: m.make_scaler(False))
        expect(not disabled.is_enabled(), "GradScaler(enabled=False) is enabled")
        if cuda_available:
            continue  # real CUDA scaling is the CUDA scenario's job
        model, optimizer, x, y = _model_and_data(torch, module, "cpu")
        start = _parameters(model)
        loss, scaled, _, logits_dtype = _quietly(
            lambda m=module, s=scaler, mo=model, o=optimizer, x=x, y=y:
            m.train_step(mo, o, s, x, y, True))
        expect(torch.isfinite(loss), "the train step produced a non-finite loss")
        expect(torch.equal(scaled, loss) and scaler.get_scale() == 1.0,
               "a disabled scaler should pass the loss through with scale 1.0")
        expect(logits_dtype == torch.float32, "the custom Function changed its output dtype")
        after = _parameters(model)
        expect(all(not torch.equal(p, q) for p, q in zip(start, after, strict=True)),
               "the train step did not update every parameter (custom backward included)")
        states.append(after)
    if states:
        expect(all(torch.equal(p, q) for p, q in zip(*states, strict=True)),
               "the rewritten train step ends at different parameters")


def cuda_autocast_and_scaling(folder: Path) -> None:
    """On a GPU: autocast("cuda") gives float16/bfloat16 as requested, custom_fwd's
    cast_inputs still forces float32, and GradScaler("cuda") really scales, skips a step
    with inf gradients and backs off, exactly like the torch.cuda.amp original."""
    torch = require_cuda()
    original, fixed, _, _, _, _ = _versions(folder)
    a = torch.randn(64, 64, device="cuda")
    b = torch.randn(64, 64, device="cuda")
    for dtype in (torch.float16, torch.bfloat16):
        before = _quietly(lambda d=dtype: original.autocast_matmul(a, b, d))
        with _deprecations_as_errors():
            after = fixed.autocast_matmul(a, b, dtype)
        expect(after.dtype == dtype, f"autocast(dtype={dtype}) produced {after.dtype}")
        expect(before.dtype == after.dtype and torch.equal(before, after),
               f"autocast({dtype}) results differ from the original's")

    final = []
    for module in (original, fixed):
        model, optimizer, x, y = _model_and_data(torch, module, "cuda")
        scaler = _quietly(lambda m=module: m.make_scaler(True))
        expect(scaler.is_enabled(), "GradScaler('cuda') is disabled on a CUDA machine")
        start = _parameters(model)

        def step(m: ModuleType = module, mo: Any = model, o: Any = optimizer,
                 s: Any = scaler, x: Any = x, y: Any = y) -> Any:
            return m.train_step(mo, o, s, x, y, True)

        if module is fixed:
            with _deprecations_as_errors():
                loss, scaled, features_dtype, logits_dtype = step()
        else:
            loss, scaled, features_dtype, logits_dtype = _quietly(step)
        expect(features_dtype == torch.float16, f"autocast ran the linear in {features_dtype}")
        expect(logits_dtype == torch.float32,
               f"custom_fwd(cast_inputs=float32) produced {logits_dtype}: wrong device_type?")
        expect(torch.allclose(scaled.float(), loss.float() * 2.0**16),
               "the loss was not scaled by 65536")
        expect(scaler.get_scale() == 2.0**16, f"scale after a finite step: {scaler.get_scale()}")
        moved = _parameters(model)
        expect(all(not torch.equal(p, q) for p, q in zip(start, moved, strict=True)),
               "the scaled step did not update every parameter")
        bad_x = x.clone()
        bad_x[0, 0] = float("inf")
        _quietly(lambda m=module, mo=model, o=optimizer, s=scaler, bx=bad_x, y=y:
                 m.train_step(mo, o, s, bx, y, True))
        expect(all(torch.equal(p, q) for p, q in zip(moved, _parameters(model), strict=True)),
               "a step with inf gradients was not skipped")
        expect(scaler.get_scale() == 2.0**15, f"the scale did not back off: {scaler.get_scale()}")
        final.append(_parameters(model))
    expect(all(torch.allclose(p, q) for p, q in zip(*final, strict=True)),
           "the rewritten CUDA train step ends at different parameters")


def module_alias_keeps_named_device(folder: Path) -> None:
    """`import torch.cuda.amp as torch_amp` becomes `import torch.amp as torch_amp`: a call
    written for torch.amp (`torch_amp.autocast(device_type="cpu", dtype=torch.bfloat16)`),
    which raises TypeError with the old module, now runs and autocasts on the device it
    names; `torch_amp.GradScaler(enabled=...)` gets "cuda", the device the old name meant."""
    torch = require_torch()
    fixed_source = _rewrite(ALIAS_TRAINER)
    for needle in ("import torch.amp as torch_amp\n",
                   'torch_amp.GradScaler("cuda", enabled=use_amp)',
                   'torch_amp.autocast(device_type="cpu", dtype=torch.bfloat16)',
                   'torch_amp.autocast(device_type="cuda", dtype=torch.float16)'):
        expect(needle in fixed_source, f"the rewrite lacks {needle!r}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        original = load_module(ALIAS_TRAINER, folder, "amp_alias_before")
    a, b = torch.randn(32, 64), torch.randn(64, 16)
    try:
        _quietly(lambda: original.cpu_matmul(a, b))
    except TypeError:
        pass
    else:
        raise ScenarioFailed("torch.cuda.amp.autocast(device_type=...) should raise TypeError")
    fixed = load_module(fixed_source, folder, "amp_alias_after")
    with _deprecations_as_errors():
        result = fixed.cpu_matmul(a, b)
        scaler = fixed.make_scaler(True)
    expect(result.dtype == torch.bfloat16, f"cpu autocast produced {result.dtype}, not bfloat16")
    expect(torch.allclose(result.float(), a @ b, rtol=0.05, atol=0.05),
           "the autocast matmul is far from the float32 one")
    cuda = torch.cuda.is_available()
    # A CUDA scaler is enabled exactly when CUDA is there; a CPU one would always be.
    expect(scaler.is_enabled() == cuda,
           f"GradScaler is {'en' if scaler.is_enabled() else 'dis'}abled with CUDA "
           f"{'available' if cuda else 'unavailable'}: not a CUDA scaler?")
    if cuda:
        x, y = torch.randn(64, 64, device="cuda"), torch.randn(64, 64, device="cuda")
        with _deprecations_as_errors():
            half = fixed.cuda_matmul(x, y)
        expect(half.dtype == torch.float16, f"cuda autocast produced {half.dtype}")


def model_autocast_keeps_its_dtype(folder: Path) -> None:
    """`torch.cpu.amp.autocast()` in a module's forward always meant bfloat16; the rewrite
    says `dtype=torch.bfloat16`, so a caller's enclosing float16 autocast does not change
    the block's precision (torch.amp.autocast without a dtype would take float16)."""
    torch = require_torch()
    fixed_source = _rewrite(NESTED_MODEL)
    needle = 'torch.amp.autocast("cpu", dtype=torch.bfloat16)'
    expect(needle in fixed_source, f"the rewrite lacks {needle!r}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        original = load_module(NESTED_MODEL, folder, "amp_nested_before")
    fixed = load_module(fixed_source, folder, "amp_nested_after")
    torch.manual_seed(0)
    before_model = original.Block()
    after_model = fixed.Block()
    after_model.load_state_dict(before_model.state_dict())
    x = torch.randn(8, 64)
    with torch.autocast("cpu", dtype=torch.float16):
        before = _quietly(lambda: before_model(x))
        with _deprecations_as_errors():
            after = after_model(x)
    expect(before.dtype == torch.bfloat16, f"the original block produced {before.dtype}")
    expect(after.dtype == before.dtype,
           f"the rewritten block produced {after.dtype}, the original {before.dtype}")
    expect(torch.equal(before, after), "the rewritten block's output differs")


SCENARIOS = [
    Scenario(CODEMOD, "model_autocast_keeps_its_dtype", model_autocast_keeps_its_dtype),
    Scenario(CODEMOD, "no_deprecation_warnings", no_deprecation_warnings),
    Scenario(CODEMOD, "cpu_autocast_bfloat16", cpu_autocast_bfloat16),
    Scenario(CODEMOD, "grad_scaler_steps_optimizer", grad_scaler_steps_optimizer),
    Scenario(CODEMOD, "module_alias_keeps_named_device", module_alias_keeps_named_device),
    Scenario(CODEMOD, "cuda_autocast_and_scaling", cuda_autocast_and_scaling, needs_cuda=True),
]
