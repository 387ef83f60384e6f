"""torch is also named by a string annotation: the import stays."""

import torch


def save_checkpoint(weights: "torch.Tensor", path):
    torch.save(weights, path)
