"""After atomic-save with the package helper: atomic_save(model, path) is the torch.save
of a whole module, so the load right after it reads a whole module back."""

import torch

from ._torchfix_atomic_save import atomic_save


def round_trip(model, path):
    atomic_save(model, path)
    restored = torch.load(path, weights_only=False)
    return restored
