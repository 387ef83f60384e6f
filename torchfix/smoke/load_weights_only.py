"""load-weights-only, executed: a state dict still loads after the rewrite, and a file that
carries a pickled object of its own is refused by the rewritten load."""

from __future__ import annotations

import pickle
from pathlib import Path

from torchfix.smoke import Scenario, ScenarioFailed, expect, load_module, require_torch, rewrite

CODEMOD = "load-weights-only"

RESTORE = '''
import torch
from torch import nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 8)
        self.head = nn.Linear(8, 2)


def save(policy, optimizer, path):
    torch.save({"policy": policy.state_dict(), "optimizer": optimizer.state_dict()}, path)


def restore(policy, optimizer, path):
    ckpt = torch.load(path, map_location="cpu")
    policy.load_state_dict(ckpt["policy"])
    optimizer.load_state_dict(ckpt["optimizer"])
'''

READ_ANYTHING = '''
import torch


class RunConfig:
    """Saved beside the weights by many training scripts (argparse.Namespace and the like)."""

    def __init__(self, lr):
        self.lr = lr


def restore(model, path):
    ckpt = torch.load(path)
    model.load_state_dict({key.removeprefix("module."): value for key, value in ckpt.items()})
'''


def state_dict_loads(folder: Path) -> None:
    torch = require_torch()
    fixed_source = rewrite(RESTORE, CODEMOD)
    expect('torch.load(path, map_location="cpu", weights_only=True)' in fixed_source,
           "the load did not get weights_only=True (as a safe fix)")
    fixed = load_module(fixed_source, folder, "restore_after")
    torch.manual_seed(0)
    trained = fixed.Policy()
    optimizer = torch.optim.Adam(trained.parameters(), lr=1e-3)
    loss = trained.head(trained.body(torch.randn(3, 4))).pow(2).sum()
    loss.backward()
    optimizer.step()
    path = folder / "ckpt.pt"
    fixed.save(trained, optimizer, path)  # the entries restore() reads are the module's own

    policy = fixed.Policy()
    fresh_optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    fixed.restore(policy, fresh_optimizer, path)
    for key, tensor in trained.state_dict().items():
        expect(torch.equal(policy.state_dict()[key], tensor), f"{key} was not restored")
    expect(fresh_optimizer.state_dict()["state"], "the optimizer state was not restored")


def pickled_object_is_refused(folder: Path) -> None:
    torch = require_torch()
    fixed_source = rewrite(READ_ANYTHING, CODEMOD, unsafe_fixes=True)
    expect("torch.load(path, weights_only=True)" in fixed_source,
           "the load did not get weights_only=True (as an unsafe fix)")
    fixed = load_module(fixed_source, folder, "restore_after")
    path = folder / "model.pt"
    # A state dict the load feeds to load_state_dict, with an object saved beside it: the
    # file the unsafe label warns about.
    layer = torch.nn.Linear(2, 2)
    torch.save({**layer.state_dict(), "config": fixed.RunConfig(lr=3e-4)}, path)
    try:
        fixed.restore(torch.nn.Linear(2, 2), path)
    except pickle.UnpicklingError:
        pass
    else:
        raise ScenarioFailed("weights_only=True loaded a file carrying an arbitrary object")
    # Loading it at all needs full unpickling, what the call did before torch 2.6.
    everything = torch.load(path, weights_only=False)
    expect(everything["config"].lr == 3e-4 and torch.equal(everything["weight"], layer.weight),
           "the file did not hold what was saved")


SCENARIOS = [
    Scenario(CODEMOD, "state_dict_loads", state_dict_loads),
    Scenario(CODEMOD, "pickled_object_is_refused", pickled_object_is_refused),
]
