import torch


def soft_plus(x):
    return torch.log(1 + torch.exp(x))
