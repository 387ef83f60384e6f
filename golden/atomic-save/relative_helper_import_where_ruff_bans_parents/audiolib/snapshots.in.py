"""Absolute imports of its own package: the helper's import is absolute too."""

import torch

from audiolib.models import Generator


def snapshot_weights(generator: Generator, out_dir):
    for step in range(3):
        torch.save(generator.state_dict(), f"{out_dir}/generator.pt")


def run_snapshot_weights(generator, out_dir):
    snapshot_weights(generator, out_dir)
