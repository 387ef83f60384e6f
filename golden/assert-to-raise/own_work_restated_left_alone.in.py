# golden-args: --unsafe-fixes
"""Checks of what FX hands a pass, and of the function's own update: internal invariants."""
import torch
from torch.fx import Interpreter


class GraphCounter(Interpreter):
    def get_attr(self, target, args, kwargs):
        assert isinstance(target, str)  # FX hands the target
        return self.fetch_attr(target)


class Choice:
    label = "op"

    def validate(self, sample: dict) -> None:
        if self.label not in sample:
            raise KeyError(self.label)

    def freeze(self, sample: dict):
        self.validate(sample)
        assert self.label in sample
        return sample[self.label]


def step(states, actions):
    states.tensor[..., 0] = states.tensor[..., 0] + actions.squeeze(-1)
    assert states.tensor.shape[-1] == 2
    return states


def scale(values: torch.Tensor, factor: float) -> torch.Tensor:
    assert factor > 0, "factor must be positive"
    return values * factor


def head_weight_decay(cfg):
    # The write is in the other branch: the assert checks the user's config.
    if not cfg.head.use_different_wd:
        cfg.head.weight_decay = cfg.weight_decay
    else:
        assert cfg.head.weight_decay >= 0.0, "weight decay must be non-negative"
    return cfg
