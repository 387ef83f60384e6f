import torch


def penalty(ratio):
    return torch.log(1 + ratio)
