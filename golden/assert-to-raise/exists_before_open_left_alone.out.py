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


def count_file(path, verbose=False):
    # torchkbert (round 40): a line in between, and the open a few lines later
    if verbose:
        print("counting file {} ...".format(path))
    assert os.path.exists(path)

    sents = []
    with open(path, "r", encoding="utf-8") as f:
        for line in f:
            sents.append(line)
    return sents


def reload(path, fallback):
    # the path is bound anew before the open: the check stays a check
    if not os.path.exists(path):
        raise FileNotFoundError("expected os.path.exists(path)")
    path = fallback
    with open(path) as handle:
        return handle.read()
