import os
import shutil
import tempfile
from pathlib import Path

import torch


def save_atomically(state, path):
    tmp = path + ".partial"
    torch.save(state, tmp)
    os.replace(tmp, path)


def save_with_pathlib(state, path: Path):
    staging = path.with_suffix(".staging")
    torch.save(state, staging)
    staging.replace(path)


def save_via_move(state, path):
    with tempfile.TemporaryDirectory() as scratch:
        staged = os.path.join(scratch, os.path.basename(path))
        torch.save(state, staged)
        shutil.move(staged, path)


def save_nested(state, path):
    def write(target):
        torch.save(state, target)

    write(path + ".new")
    os.rename(path + ".new", path)


class CheckpointSaver:
    """Writes a temporary file in one method and moves it into place in another."""

    def __init__(self, checkpoint_dir):
        self.checkpoint_dir = checkpoint_dir

    def _write(self, state, path):
        torch.save(state, path)

    def _promote(self, src, dst):
        os.replace(src, dst)

    def save_last(self, state):
        partial = os.path.join(self.checkpoint_dir, "partial.pth")
        self._write(state, partial)
        self._promote(partial, os.path.join(self.checkpoint_dir, "last.pth"))
