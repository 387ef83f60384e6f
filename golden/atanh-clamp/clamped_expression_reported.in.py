import torch


def atanh_of_tanh(u):
    return torch.atanh(torch.tanh(u).clamp(-0.999999, 0.999999))
