"""`save` imported from torch and only called: the import goes."""

import math

from torch import save


def save_checkpoint(model, path):
    save(model.state_dict(), path)
    return math.pi
