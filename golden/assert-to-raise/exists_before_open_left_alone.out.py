import os
from pathlib import Path

import torch


def read_text(path: Path):
    # the open right after raises FileNotFoundError naming the path
    assert path.exists()
    with path.open("r", encoding="utf-8") as handle:
        return handle.read()


def read_lines(path: str):
    assert os.path.isfile(path), f"no file at {path}"
    with open(path) as handle:
        return handle.readlines()


def load_state(path: str):
    assert os.path.exists(path)
    return torch.load(path)


def list_folder(folder: Path, other: Path):
    # the next statement opens another path: the check stays a check
    if not folder.exists():
        raise FileNotFoundError("expected folder.exists()")
    with other.open() as handle:
        return handle.read(), list(folder.iterdir())
