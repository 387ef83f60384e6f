"""detach-before-numpy, executed: logging a layer's output during training raised
RuntimeError before the rewrite and returns the same numbers after it; code under
`torch.no_grad()` was not touched and behaves as before."""

from __future__ import annotations

from pathlib import Path

from torchfix.smoke import Scenario, ScenarioFailed, expect, load_module, require_torch, rewrite

CODEMOD = "detach-before-numpy"

CRITIC = '''
import torch
from torch import nn


class Critic(nn.Module):
    def __init__(self, obs_dim=4):
        super().__init__()
        self.body = nn.Linear(obs_dim, 16)
        self.value = nn.Linear(16, 1)

    def forward(self, obs):
        return self.value(torch.tanh(self.body(obs)))

    def train_step(self, obs, returns, optimizer, log):
        values = self(obs).squeeze(-1)
        loss = (values - returns).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log["values"] = values.cpu().numpy()
        log["loss"] = loss.cpu().numpy()
        return log

    @torch.no_grad()
    def predict(self, obs):
        return self(obs).squeeze(-1).cpu().numpy()
'''


def _run(torch, module, seed=0):
    torch.manual_seed(seed)
    critic = module.Critic()
    optimizer = torch.optim.SGD(critic.parameters(), lr=0.1)
    obs, returns = torch.randn(8, 4), torch.randn(8)
    log = critic.train_step(obs, returns, optimizer, {})
    return critic, log


def logging_a_training_step_works(folder: Path) -> None:
    torch = require_torch()
    fixed_source = rewrite(CRITIC, CODEMOD)
    expect('log["values"] = values.detach().cpu().numpy()' in fixed_source,
           "the logged values were not detached")
    expect("return self(obs).squeeze(-1).cpu().numpy()" in fixed_source,
           "the no_grad prediction was changed")
    original = load_module(CRITIC, folder, "critic_before")
    fixed = load_module(fixed_source, folder, "critic_after")

    try:
        _run(torch, original)
    except RuntimeError as exc:
        expect("requires grad" in str(exc), f"the original failed for another reason: {exc}")
    else:
        raise ScenarioFailed("the original logged a tensor that requires grad without error")

    critic, log = _run(torch, fixed)
    # The same numbers a hand-written detach gives, from the same seed and step.
    torch.manual_seed(0)
    reference = original.Critic()
    ref_obs, ref_returns = torch.randn(8, 4), torch.randn(8)
    values = reference(ref_obs).squeeze(-1)
    loss = (values - ref_returns).pow(2).mean()
    expect((log["values"] == values.detach().numpy()).all(), "logged values differ")
    expect(float(log["loss"]) == loss.item(), "logged loss differs")
    expect(log["values"].dtype == values.detach().numpy().dtype, "dtype changed")
    # The parameters were updated by the step that now completes.
    expect(not torch.equal(critic.value.weight, reference.value.weight),
           "the optimizer step did not run")


def no_grad_code_is_unchanged(folder: Path) -> None:
    torch = require_torch()
    original = load_module(CRITIC, folder, "critic_before")
    fixed = load_module(rewrite(CRITIC, CODEMOD), folder, "critic_after")
    torch.manual_seed(1)
    before = original.Critic()
    after = fixed.Critic()
    after.load_state_dict(before.state_dict())
    obs = torch.randn(5, 4)
    expect((before.predict(obs) == after.predict(obs)).all(), "predictions differ")


SCENARIOS = [
    Scenario(CODEMOD, "logging_a_training_step_works", logging_a_training_step_works),
    Scenario(CODEMOD, "no_grad_code_is_unchanged", no_grad_code_is_unchanged),
]
