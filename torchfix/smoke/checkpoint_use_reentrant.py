"""checkpoint-use-reentrant, executed: `use_reentrant=True` (the safe fix) computes the
same loss and gradients as the call did without it, minus the warning; `False` (the unsafe
one) changes which gradients exist, which is why it is left to a person."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from torchfix.smoke import Scenario, expect, load_module, require_torch, rewrite

CODEMOD = "checkpoint-use-reentrant"

MODEL = '''
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


class Tower(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 8)
        self.embed.weight.requires_grad_(False)  # frozen, as in many fine-tuning setups
        self.block = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 8))
        self.head = nn.Linear(8, 1)

    def forward(self, tokens):
        hidden = self.embed(tokens)
        hidden = checkpoint(self.block, hidden)
        return self.head(hidden).sum()
'''


def _gradients(torch: Any, module: Any) -> tuple[Any, dict[str, Any], list[str]]:
    torch.manual_seed(0)
    tower = module.Tower()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = tower(torch.tensor([[1, 2, 3]]))
        loss.backward()
    grads = {name: p.grad.clone() if p.grad is not None else None
             for name, p in tower.named_parameters()}
    return loss.detach(), grads, [str(w.message) for w in caught]


def explicit_default_changes_nothing(folder: Path) -> None:
    torch = require_torch()
    fixed_source = rewrite(MODEL, CODEMOD)
    expect("checkpoint(self.block, hidden, use_reentrant=True)" in fixed_source,
           "the call did not get use_reentrant=True")
    before = _gradients(torch, load_module(MODEL, folder, "tower_before"))
    after = _gradients(torch, load_module(fixed_source, folder, "tower_after"))
    expect(torch.equal(before[0], after[0]), "the loss changed")
    for name, grad in before[1].items():
        other = after[1][name]
        expect((grad is None) == (other is None) and (grad is None or torch.equal(grad, other)),
               f"the gradient of {name} changed")
    expect(any("use_reentrant" in text for text in before[2]),
           "the original call did not warn (has torch's default changed?)")
    expect(not any("use_reentrant parameter should be passed" in text for text in after[2]),
           "the rewritten call still warns")


def recommended_variant_changes_gradients(folder: Path) -> None:
    torch = require_torch()
    fixed_source = rewrite(MODEL, CODEMOD, unsafe_fixes=True,
                           options={"use-reentrant": False})
    expect("use_reentrant=False" in fixed_source, "the call did not get use_reentrant=False")
    _, before, _ = _gradients(torch, load_module(MODEL, folder, "tower_before"))
    _, after, _ = _gradients(torch, load_module(fixed_source, folder, "tower_after"))
    # The frozen embedding means no input of the block requires grad: the reentrant
    # variant then leaves the block's parameters without gradients; the other does not.
    expect(before["block.0.weight"] is None, "the reentrant variant produced block gradients")
    expect(after["block.0.weight"] is not None, "use_reentrant=False gave no block gradients")


SCENARIOS = [
    Scenario(CODEMOD, "explicit_default_changes_nothing", explicit_default_changes_nothing),
    Scenario(CODEMOD, "recommended_variant_changes_gradients",
             recommended_variant_changes_gradients),
]
