"""torch is also named by a string annotation: the import stays."""

import torch

from mlkit._torchfix_atomic_save import atomic_save


def save_checkpoint(weights: "torch.Tensor", path):
    atomic_save(weights, path)
