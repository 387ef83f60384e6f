# golden-args: --unsafe-fixes
from ignite.base import Serializable

from .base import BaseModel
from torch import nn


class EarlyStopping(Serializable):
    """Its base's load_state_dict takes no `strict`."""

    def load_state_dict(self, state_dict):
        super().load_state_dict(state_dict)
        self.counter = state_dict["counter"]


class Tracker:
    def restore(self, state_dict):
        self.load_state_dict(state_dict)


class Classifier(BaseModel):
    def restore(self, state_dict):
        self.load_state_dict(state_dict, strict=True)


class Head(nn.Module):
    def restore(self, state_dict):
        self.load_state_dict(state_dict, strict=True)
