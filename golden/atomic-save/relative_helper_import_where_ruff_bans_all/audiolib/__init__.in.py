"""An audio library: its package imports itself relatively."""

import torch

from .models import Generator

__all__ = ["Generator", "save_generator"]


def save_generator(generator: Generator, path):
    torch.save(generator.state_dict(), path)
