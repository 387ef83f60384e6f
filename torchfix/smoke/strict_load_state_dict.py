"""strict-load-state-dict, executed: mismatched checkpoints raise, matching ones load, and
the optimizer and scheduler calls beside them still work (they were not given `strict`).

The receiver here is annotated `nn.Module`, whose `load_state_dict` is strict by default:
the codemod only writes `strict=True` there with its `explicit-default = true` policy,
which these scenarios turn on (`OPTIONS`), as a project's configuration would."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from torchfix.smoke import Scenario, ScenarioFailed, expect, load_module, require_torch, rewrite

CODEMOD = "strict-load-state-dict"
OPTIONS = {"explicit-default": True}

TRAINER = '''
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self, obs_dim=4, act_dim=2):
        super().__init__()
        self.body = nn.Linear(obs_dim, 32)
        self.head = nn.Linear(32, act_dim)

    def forward(self, obs):
        return self.head(torch.tanh(self.body(obs)))


class LenientPolicy(Policy):
    # Seen in the wild: an override whose default quietly turns strictness off.
    def load_state_dict(self, state_dict, strict=False, assign=False):
        return super().load_state_dict(state_dict, strict=strict, assign=assign)


def resume(path, policy: nn.Module, optimizer, scheduler):
    ckpt = torch.load(path, weights_only=True)
    policy.load_state_dict(ckpt["policy"])
    optimizer.load_state_dict(ckpt["optimizer"])
    scheduler.load_state_dict(ckpt["scheduler"])
    return ckpt["step"]
'''


def _training_state(torch: Any, policy_class: type) -> tuple[Any, Any, Any]:
    policy = policy_class()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
    loss = policy(torch.randn(8, 4)).pow(2).mean()
    loss.backward()
    optimizer.step()
    scheduler.step()
    return policy, optimizer, scheduler


def _save_checkpoint(torch: Any, module: ModuleType, folder: Path, edit: str) -> Path:
    torch.manual_seed(0)
    policy, optimizer, scheduler = _training_state(torch, module.Policy)
    weights = policy.state_dict()
    if edit == "missing":
        del weights["head.bias"]
    elif edit == "unexpected":
        weights["head.scale"] = torch.ones(1)
    path = folder / f"ckpt-{edit}.pt"
    torch.save(
        {"policy": weights, "optimizer": optimizer.state_dict(),
         "scheduler": scheduler.state_dict(), "step": 7},
        path,
    )
    return path


def _resume(torch: Any, module: ModuleType, path: Path, policy_class: str) -> tuple[Any, ...]:
    policy, optimizer, scheduler = _training_state(torch, getattr(module, policy_class))
    step = module.resume(path, policy, optimizer, scheduler)
    return step, policy, optimizer, scheduler


def _raises(call: Any) -> bool:
    try:
        call()
    except RuntimeError as exc:
        return "key" in str(exc).lower()
    return False


def mismatched_checkpoints_raise(folder: Path) -> None:
    torch = require_torch()
    fixed_source = rewrite(TRAINER, CODEMOD, options=OPTIONS)
    expect('policy.load_state_dict(ckpt["policy"], strict=True)' in fixed_source,
           "the policy call did not get strict=True")
    original = load_module(TRAINER, folder, "trainer_before")
    fixed = load_module(fixed_source, folder, "trainer_after")

    for edit in ("missing", "unexpected"):
        path = _save_checkpoint(torch, original, folder, edit)
        # The lenient override swallowed the mismatch before the rewrite ...
        try:
            _resume(torch, original, path, "LenientPolicy")
        except RuntimeError as exc:
            raise ScenarioFailed(f"the original already rejected a {edit} key: {exc}") from exc
        # ... and raises after it; a plain nn.Module raises both before and after.
        expect(_raises(lambda p=path: _resume(torch, fixed, p, "LenientPolicy")),
               f"a checkpoint with a {edit} key loaded after the rewrite")
        expect(_raises(lambda p=path: _resume(torch, fixed, p, "Policy")),
               f"a plain module accepted a {edit} key after the rewrite")


def matching_checkpoint_loads(folder: Path) -> None:
    torch = require_torch()
    original = load_module(TRAINER, folder, "trainer_before")
    fixed = load_module(rewrite(TRAINER, CODEMOD, options=OPTIONS), folder, "trainer_after")
    path = _save_checkpoint(torch, original, folder, "none")
    saved = torch.load(path, weights_only=True)
    for module in (original, fixed):
        for policy_class in ("Policy", "LenientPolicy"):
            step, policy, optimizer, scheduler = _resume(torch, module, path, policy_class)
            expect(step == 7, "resume returned the wrong step")
            for key, tensor in policy.state_dict().items():
                expect(torch.equal(tensor, saved["policy"][key]), f"{key} was not restored")
            # Optimizer and scheduler load_state_dict take no `strict`: had the rewrite
            # given them one, resume() would have raised a TypeError above.
            expect(optimizer.state_dict()["state"], "optimizer state was not restored")
            expect(scheduler.last_epoch == saved["scheduler"]["last_epoch"],
                   "scheduler state was not restored")


SCENARIOS = [
    Scenario(CODEMOD, "mismatched_checkpoints_raise", mismatched_checkpoints_raise),
    Scenario(CODEMOD, "matching_checkpoint_loads", matching_checkpoint_loads),
]
