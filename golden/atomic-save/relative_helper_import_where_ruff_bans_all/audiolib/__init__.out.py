"""An audio library: its package imports itself relatively."""

from audiolib._torchfix_atomic_save import atomic_save

from .models import Generator

__all__ = ["Generator", "save_generator"]


def save_generator(generator: Generator, path):
    atomic_save(generator.state_dict(), path)
