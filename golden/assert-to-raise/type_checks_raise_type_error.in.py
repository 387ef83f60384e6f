import torch
from torch import nn
from torch.optim import Optimizer


def resize_events(factor):
    assert isinstance(factor, int) or hasattr(factor, "__iter__"), "factor: an int or a sequence"
    assert hasattr(factor, "shape"), "factor needs a shape"
    return factor


def build_trainer(policy, optimizer_class, obs_space, lr):
    assert isinstance(policy, nn.Module), f"policy must be an nn.Module, got {type(policy)}"
    assert issubclass(optimizer_class, Optimizer)
    assert not isinstance(lr, str), "pass the learning rate as a number"
    assert isinstance(obs_space, tuple) or isinstance(obs_space, list)
    assert isinstance(lr, float) and lr > 0, "lr must be a positive float"
    return optimizer_class(policy.parameters(), lr=lr)


def connect(source, weights=None, wmin=None):
    # an optional type check and torch's own type test are type checks too (round 23:
    # bindsnet, torchdiffeq)
    assert wmin is None or isinstance(wmin, float), "wmin must be None or a float"
    assert torch.is_tensor(source), "source must be a tensor"
    return source, weights


def dream(model, normalization_transform, semantics):
    # compared with True, and over every item (torch-dreams, uni-pytorch: round 47)
    assert isinstance(normalization_transform, nn.Module) == True, "expected a module"
    assert all(isinstance(s, str) for s in semantics), "semantics must be strings"
    return model
