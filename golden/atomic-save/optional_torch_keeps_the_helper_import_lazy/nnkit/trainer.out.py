"""torch imported at the top: the package helper's import is fine here."""

import torch

from nnkit._torchfix_atomic_save import atomic_save


def save_checkpoint(model, path):
    atomic_save(model.state_dict(), path)
    return torch.cuda.is_available()
