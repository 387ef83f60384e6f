# golden-args: --unsafe-fixes
# exp(n) - 1 of a whole n cancels nothing (0 exactly, or at least e - 1): left alone. A
# float x is rewritten.
import torch


def growth(n_layers):
    depth = torch.arange(n_layers).float()
    return torch.exp(depth) - 1


def rate(log_rate):
    return torch.expm1(log_rate)
