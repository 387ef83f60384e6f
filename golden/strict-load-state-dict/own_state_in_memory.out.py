import copy

import torch
from torch import nn


class EarlyStopping:
    def __init__(self, model: nn.Module):
        self.model = model
        self.best_state = None

    def on_improvement(self):
        self.best_state = copy.deepcopy(self.model.state_dict())

    def on_end(self):
        # The model's own weights, kept in memory by another method: the keys match by
        # construction, so strict=True would only be noise.
        if self.best_state is not None:
            self.model.load_state_dict(self.best_state)


def fit(model: nn.Linear, batches):
    best = None
    initial = {k: v.detach().clone() for k, v in model.state_dict().items()}
    for batch in batches:
        model(batch).sum().backward()
        best = model.state_dict()
    model.load_state_dict(best)
    model.load_state_dict(initial)


def load_partly(model: nn.Linear, path):
    # A copy whose keys are then set from a file is a checkpoint like any other.
    state = copy.deepcopy(model.state_dict())
    state["weight"] = torch.load(path)
    model.load_state_dict(state, strict=True)
