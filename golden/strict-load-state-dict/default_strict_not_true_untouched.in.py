# golden-args: --unsafe-fixes
from typing import Optional

from torch import nn


class Pipeline(nn.Module):
    def load_state_dict(self, state_dict, strict: Optional[bool] = None):
        # strict=None: try strictly, fall back to a partial load for older checkpoints.
        try:
            return super().load_state_dict(state_dict, strict=True)
        except RuntimeError:
            if not strict:
                return super().load_state_dict(state_dict, strict=False)
            raise

    def load_pipeline(self, state):
        self.load_state_dict(state)


class Optimizers:
    def __init__(self, optimizers: dict, schedulers: dict):
        self.optimizers = optimizers
        self.schedulers = schedulers

    def load(self, state):
        for name, value in state["optimizers"].items():
            self.optimizers[name].load_state_dict(value)
        for name, value in state["schedulers"].items():
            self.schedulers[name].load_state_dict(value)


def sync(target: nn.Module, online: nn.Module) -> None:
    # A live copy, not a checkpoint: keys match by construction.
    target.load_state_dict(online.state_dict())
