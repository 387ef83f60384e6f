import torch
from torch import nn


class PatchEmbedding(nn.Module):
    def __init__(self, h_div: int, w_div: int, size: tuple[int, int]) -> None:
        super().__init__()
        # the attributes are named H_div and W_div below: self.h_div never exists
        assert size[0] % self.h_div == 0 or size[1] % self.w_div == 0, "size must divide"
        self.H_div = h_div
        self.W_div = w_div


class Perturber:
    def __init__(self, actor: nn.Module) -> None:
        self.actor = actor

    def perturb(self, scale: float) -> None:
        # parameters() is a generator: len() of it is a TypeError
        assert len(self.actor.parameters()) > 0, "actor has no parameters"
        with torch.no_grad():
            for parameter in self.actor.parameters():
                parameter.add_(torch.randn_like(parameter) * scale)


class ScaleMixin:
    def __init__(self, factor: float) -> None:
        # a plain class may be mixed with one that sets `scale` first: not reported as never set
        assert factor <= self.scale, "factor must not exceed scale"
        self.factor = factor
