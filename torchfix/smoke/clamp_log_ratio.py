"""clamp-log-ratio, executed: with extreme log-probability gaps the PPO loss or its gradient
is inf/NaN before the rewrite and finite after it; with ordinary gaps, where the clamp is
inactive, the loss and every gradient are bitwise identical."""

from __future__ import annotations

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

CODEMOD = "clamp-log-ratio"

# CleanRL's discrete PPO update, and an SB3/skrl-style continuous one.
TRAINER = '''
import torch
from torch import nn
from torch.distributions import Categorical, Normal


class Agent(nn.Module):
    def __init__(self, obs_dim=6, n_actions=4):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))

    def get_action_and_value(self, obs, action):
        probs = Categorical(logits=self.actor(obs))
        return action, probs.log_prob(action), probs.entropy()


def cleanrl_pg_loss(agent, b_obs, b_actions, b_logprobs, b_advantages, mb_inds, clip_coef):
    _, newlogprob, entropy = agent.get_action_and_value(b_obs[mb_inds], b_actions[mb_inds])
    logratio = newlogprob - b_logprobs[mb_inds]
    ratio = logratio.exp()
    mb_advantages = b_advantages[mb_inds]
    pg_loss1 = -mb_advantages * ratio
    pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
    pg_loss = torch.max(pg_loss1, pg_loss2).mean()
    return pg_loss - 0.01 * entropy.mean(), ratio


class GaussianActor(nn.Module):
    def __init__(self, obs_dim=6, act_dim=2):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, act_dim))
        self.log_std = nn.Parameter(torch.full((act_dim,), -0.5))

    def distribution(self, obs):
        return Normal(self.mu(obs), self.log_std.exp())


def clipped_surrogate(actor, obs, actions, old_log_probs, advantages, clip_eps):
    new_log_probs = actor.distribution(obs).log_prob(actions).sum(-1)
    ratio = torch.exp(new_log_probs - old_log_probs)
    surr1 = ratio * advantages
    surr2 = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * advantages
    return -torch.min(surr1, surr2).mean(), ratio
'''

BATCH = 64
EXTREME_GAP = 150.0  # nats: exp(150) is inf in float32 (and exp(-150) is 0)


def _fixed_source(**options: Any) -> str:
    source = rewrite(TRAINER, CODEMOD, options=options, unsafe_fixes=True)
    bound = repr(float(options.get("bound", 20.0)))
    expect(f"ratio = logratio.clamp(-{bound}, {bound}).exp()" in source,
           "CleanRL's `logratio.exp()` was not clamped")
    expect(
        f"torch.exp(torch.clamp(new_log_probs - old_log_probs, min=-{bound}, max={bound}))"
        in source,
        "`torch.exp(new_log_probs - old_log_probs)` was not clamped",
    )
    expect("self.log_std.exp()" in source, "the policy's `log_std.exp()` was touched")
    return source


def _run(torch: Any, module: ModuleType, loss_name: str, gaps: Any, device: str,
         dtype: Any) -> tuple[Any, Any, dict[str, Any]]:
    """One PPO loss and backward pass; old log-probs = current ones minus `gaps`."""
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(1)
    advantages = torch.randn(BATCH, generator=generator).to(device, dtype)
    obs = torch.randn(BATCH, 6, generator=generator).to(device, dtype)
    if loss_name == "cleanrl_pg_loss":
        net = module.Agent().to(device, dtype)
        actions = torch.randint(0, 4, (BATCH,), generator=generator).to(device)
        with torch.no_grad():
            _, current, _ = net.get_action_and_value(obs, actions)
        mb_inds = torch.randperm(BATCH, generator=generator).to(device)
        loss, ratio = module.cleanrl_pg_loss(
            net, obs, actions, current + gaps, advantages, mb_inds, 0.2
        )
    else:
        net = module.GaussianActor().to(device, dtype)
        actions = torch.randn(BATCH, 2, generator=generator).to(device, dtype)
        with torch.no_grad():
            current = net.distribution(obs).log_prob(actions).sum(-1)
        loss, ratio = module.clipped_surrogate(net, obs, actions, current + gaps, advantages, 0.2)
    loss.backward()
    grads = {name: p.grad for name, p in net.named_parameters()}
    expect(all(g is not None for g in grads.values()), "a parameter got no gradient")
    return loss.detach(), ratio.detach(), grads


def _extreme_gaps(torch: Any, device: str, dtype: Any) -> Any:
    """Mostly ordinary gaps, and a few samples whose old log-prob is 150 nats lower or
    higher: off-policy or stale rollout data the old policy all but never chose."""
    generator = torch.Generator().manual_seed(2)
    gaps = (torch.rand(BATCH, generator=generator) - 0.5).to(device, dtype)
    gaps[::8] = -EXTREME_GAP  # ratio exp(+150): inf
    gaps[3::16] = EXTREME_GAP  # ratio exp(-150): 0
    return gaps


def _all_finite(torch: Any, loss: Any, grads: dict[str, Any]) -> bool:
    return bool(torch.isfinite(loss)) and all(bool(torch.isfinite(g).all()) for g in grads.values())


def _extreme_gaps_stay_finite(torch: Any, folder: Path, device: str) -> None:
    original = load_module(TRAINER, folder, "ppo_before")
    fixed = load_module(_fixed_source(), folder, "ppo_after")
    for loss_name in ("cleanrl_pg_loss", "clipped_surrogate"):
        gaps = _extreme_gaps(torch, device, torch.float32)
        loss, ratio, grads = _run(torch, original, loss_name, gaps, device, torch.float32)
        expect(bool(torch.isinf(ratio).any()), f"{loss_name}: the original ratio never overflowed")
        expect(not _all_finite(torch, loss, grads),
               f"{loss_name}: the original loss and gradients were finite; nothing to fix")
        loss, ratio, grads = _run(torch, fixed, loss_name, gaps, device, torch.float32)
        expect(bool(torch.isfinite(ratio).all()), f"{loss_name}: the clamped ratio is not finite")
        expect(float(ratio.max()) <= float(torch.tensor(20.0).exp()) * (1 + 1e-6),
               f"{loss_name}: a ratio exceeds exp(20)")
        expect(_all_finite(torch, loss, grads),
               f"{loss_name}: the loss or a gradient is not finite after the rewrite")


def _ordinary_gaps_identical(torch: Any, folder: Path, device: str, dtype: Any) -> None:
    original = load_module(TRAINER, folder, "ppo_before")
    fixed = load_module(_fixed_source(), folder, "ppo_after")
    generator = torch.Generator().manual_seed(3)
    for loss_name in ("cleanrl_pg_loss", "clipped_surrogate"):
        gaps = (4 * (torch.rand(BATCH, generator=generator) - 0.5)).to(device, dtype)
        before = _run(torch, original, loss_name, gaps, device, dtype)
        after = _run(torch, fixed, loss_name, gaps, device, dtype)
        for name, old, new in (("loss", before[0], after[0]), ("ratio", before[1], after[1])):
            expect(new.dtype == old.dtype == dtype, f"{loss_name}: {name} dtype changed")
            expect(new.device == old.device, f"{loss_name}: {name} moved device")
            expect(torch.equal(old, new), f"{loss_name}: {name} differs where the clamp is "
                   f"inactive (max diff {float((old - new).abs().max())})")
        for name, grad in before[2].items():
            expect(torch.equal(grad, after[2][name]),
                   f"{loss_name}: the gradient of {name} differs where the clamp is inactive")


def extreme_gaps_stay_finite(folder: Path) -> None:
    _extreme_gaps_stay_finite(require_torch(), folder, "cpu")


def ordinary_gaps_bitwise_identical(folder: Path) -> None:
    torch = require_torch()
    for dtype in (torch.float32, torch.float64):
        _ordinary_gaps_identical(torch, folder, "cpu", dtype)


def configured_bound_is_used(folder: Path) -> None:
    torch = require_torch()
    fixed = load_module(_fixed_source(bound=10.0), folder, "ppo_bound_10")
    gaps = _extreme_gaps(torch, "cpu", torch.float32)
    for loss_name in ("cleanrl_pg_loss", "clipped_surrogate"):
        loss, ratio, grads = _run(torch, fixed, loss_name, gaps, "cpu", torch.float32)
        limit = float(torch.tensor(10.0).exp())
        expect(abs(float(ratio.max()) - limit) <= limit * 1e-6,
               f"{loss_name}: the largest ratio is {float(ratio.max())}, not exp(10)")
        expect(_all_finite(torch, loss, grads), f"{loss_name}: not finite with bound 10")


def cuda_extreme_and_ordinary_gaps(folder: Path) -> None:
    torch = require_cuda()
    _extreme_gaps_stay_finite(torch, folder, "cuda")
    for dtype in (torch.float32, torch.float64):
        _ordinary_gaps_identical(torch, folder, "cuda", dtype)


SCENARIOS = [
    Scenario(CODEMOD, "extreme_gaps_stay_finite", extreme_gaps_stay_finite),
    Scenario(CODEMOD, "ordinary_gaps_bitwise_identical", ordinary_gaps_bitwise_identical),
    Scenario(CODEMOD, "configured_bound_is_used", configured_bound_is_used),
    Scenario(CODEMOD, "cuda_extreme_and_ordinary_gaps", cuda_extreme_and_ordinary_gaps,
             needs_cuda=True),
]
