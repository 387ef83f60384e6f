"""The project sorts plain and from-imports together (isort's force-sort-within-sections):
the helper's imports go where that order puts them, not before every from-import."""

from collections.abc import Callable
from copy import deepcopy
import logging
import os
from typing import Optional
import warnings

import torch


def save_checkpoints(checkpoints: Optional[dict], folder: str) -> None:
    torch.save(checkpoints, os.path.join(folder, "checkpoints.pt"))


def run_save_checkpoints(checkpoints, folder):
    save_checkpoints(checkpoints, folder)
