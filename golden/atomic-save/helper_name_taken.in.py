import torch

from .io import atomic_save as _torchfix_atomic_save


def save_checkpoint(state, path):
    torch.save(state, path)


def run_save_checkpoint(state, path):
    save_checkpoint(state, path)
