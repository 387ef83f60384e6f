# golden-args: --unsafe-fixes
"""A removal of another file, or of the destination before the save (replacing an old
checkpoint), leaves a real checkpoint: rewritten."""

import os

import torch


def save_latest(model, path, previous):
    torch.save(model.state_dict(), path)
    os.remove(previous)


def overwrite(model, path):
    if os.path.exists(path):
        os.remove(path)
    torch.save(model.state_dict(), path)
