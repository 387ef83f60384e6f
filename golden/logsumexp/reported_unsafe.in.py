import torch


def log_partition(logits):
    return torch.log(torch.sum(torch.exp(logits), dim=-1))
