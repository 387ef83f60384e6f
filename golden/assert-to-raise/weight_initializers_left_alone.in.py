import math

from torch import nn


def weight_init(m: nn.Module) -> None:
    if isinstance(m, nn.Conv2d):
        assert m.weight.size(2) == m.weight.size(3)  # the package's own square kernels
        nn.init.orthogonal_(m.weight)


def generic_param_init_fn_(module: nn.Module, n_layers: int) -> None:
    assert isinstance(module, nn.MultiheadAttention)
    nn.init.normal_(module.in_proj_weight, std=1 / math.sqrt(n_layers))


def build_head(width: int) -> nn.Linear:
    assert width > 0, "width must be positive"  # a caller's value: still an input check
    return nn.Linear(width, width)
