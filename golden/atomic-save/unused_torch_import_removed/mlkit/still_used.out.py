"""torch is used beside torch.save: the import stays."""

import torch

from mlkit._torchfix_atomic_save import atomic_save


def save_checkpoint(model, path):
    atomic_save(model.state_dict(), path)
    return torch.cuda.is_available()
