import torch


def rate(log_rate):
    return torch.exp(log_rate) - 1
