"""The module imports `Any` from typing already: the helper's annotations use it, and
no `import typing` is added for them."""

import os
from typing import Any

import torch


def save_checkpoint(state: Any, folder: str) -> None:
    torch.save(state, os.path.join(folder, "checkpoint.pt"))


def run_save_checkpoint(state, folder):
    save_checkpoint(state, folder)
