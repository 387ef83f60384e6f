"""The project enables ruff's flake8-use-pathlib (PTH): the helper uses pathlib, not
os.path, os.replace or open()."""

import torch


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)
