"""A saver of the module's own that hands any object to the package helper: the files
it writes may hold whole objects, as with torch.save."""

import torch

from flowlib._torchfix_atomic_save import atomic_save


def dump(obj, path):
    atomic_save(obj, path)


def restore(net, path):
    net.load_state_dict(torch.load(path))
