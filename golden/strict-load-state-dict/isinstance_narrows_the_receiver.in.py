# golden-args: --unsafe-fixes
import torch as th
from torch import nn


def set_parameters(policy, params):
    for name, state in params.items():
        attr = getattr(policy, name)
        if isinstance(attr, th.optim.Optimizer):
            # Optimizers take no `strict`: passing it is a TypeError.
            attr.load_state_dict(state)
        elif isinstance(attr, (nn.Module, nn.ModuleDict)):
            attr.load_state_dict(state)
        else:
            # Neither: an attribute picked by name at run time may be anything.
            attr.load_state_dict(state)
