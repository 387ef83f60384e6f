import os
from pathlib import Path


class Tokenizer:
    def __init__(self, vocab_file: str, merges: Path):
        if not os.path.isfile(vocab_file):
            raise FileNotFoundError(vocab_file)
        if not merges.exists():
            raise FileNotFoundError(f"no merges file at {merges}")
        self.vocab_file = vocab_file
        self.merges = merges


def list_runs(root: str) -> list[str]:
    if not os.path.isdir(root):
        raise FileNotFoundError("expected os.path.isdir(root)")
    return sorted(os.listdir(root))


def checked(path: Path, size: int) -> Path:
    if not (path.is_file() and size > 0):  # two checks: not only a missing file
        raise ValueError("expected path.is_file() and size > 0")
    return path
