import torch


def soft_plus(x):
    return torch.log1p(torch.exp(x))
