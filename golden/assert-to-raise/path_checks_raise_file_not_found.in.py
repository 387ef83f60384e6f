import os
from pathlib import Path


class Tokenizer:
    def __init__(self, vocab_file: str, merges: Path):
        assert os.path.isfile(vocab_file), vocab_file
        assert merges.exists(), f"no merges file at {merges}"
        self.vocab_file = vocab_file
        self.merges = merges


def list_runs(root: str) -> list[str]:
    assert os.path.isdir(root)
    return sorted(os.listdir(root))


def checked(path: Path, size: int) -> Path:
    assert path.is_file() and size > 0  # two checks: not only a missing file
    return path
