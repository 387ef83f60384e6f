import torch
from torch import nn
from torch.optim import Optimizer


def resize_events(factor):
    if not (isinstance(factor, int) or hasattr(factor, "__iter__")):
        raise TypeError("factor: an int or a sequence")
    if not hasattr(factor, "shape"):
        raise ValueError("factor needs a shape")
    return factor


def build_trainer(policy, optimizer_class, obs_space, lr):
    if not isinstance(policy, nn.Module):
        raise TypeError(f"policy must be an nn.Module, got {type(policy)}")
    if not issubclass(optimizer_class, Optimizer):
        raise TypeError("expected issubclass(optimizer_class, Optimizer)")
    if isinstance(lr, str):
        raise TypeError("pass the learning rate as a number")
    if not (isinstance(obs_space, tuple) or isinstance(obs_space, list)):
        raise TypeError(
            "expected isinstance(obs_space, tuple) or isinstance(obs_space, list)"
        )
    if not (isinstance(lr, float) and lr > 0):
        raise ValueError("lr must be a positive float")
    return optimizer_class(policy.parameters(), lr=lr)


def connect(source, weights=None, wmin=None):
    # an optional type check and torch's own type test are type checks too (round 23:
    # bindsnet, torchdiffeq)
    if not (wmin is None or isinstance(wmin, float)):
        raise TypeError("wmin must be None or a float")
    if not torch.is_tensor(source):
        raise TypeError("source must be a tensor")
    return source, weights


def dream(model, normalization_transform, semantics):
    # compared with True, and over every item (torch-dreams, uni-pytorch: round 47)
    if isinstance(normalization_transform, nn.Module) != True:
        raise TypeError("expected a module")
    if not all(isinstance(s, str) for s in semantics):
        raise TypeError("semantics must be strings")
    return model
