"""`save` imported from torch and only called: the import goes."""

import math

from mlkit._torchfix_atomic_save import atomic_save


def save_checkpoint(model, path):
    atomic_save(model.state_dict(), path)
    return math.pi
