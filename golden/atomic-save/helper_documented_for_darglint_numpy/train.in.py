"""The project checks docstrings with darglint: the helper's docstring lists its
parameters (DAR101), in the project's docstring style."""

import torch


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)
