"""Every change knows where the changed code ends, on both roads through the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from torchfix.engine.cache import ResultCache
from torchfix.engine.process import process_source
from torchfix.engine.results import EngineSettings

SOURCE = '''\
class Trainer:
    def resume(self, model, ckpt):
        model.load_state_dict(
            ckpt["model"],
        )
        model.load_state_dict(ckpt)  # é


def scale(lr, gamma):
    assert lr > 0, "the learning rate " \\
                   "must be positive"
    assert gamma < 1, "gämma must be below one"
'''


def _spans(produce_output: bool) -> list[tuple[str, int, int, int | None, int | None]]:
    settings = EngineSettings(codemods=("assert-to-raise", "strict-load-state-dict"),
                              produce_output=produce_output)
    result = process_source(SOURCE.encode(), Path("train.py"), settings)
    return sorted((c.codemod, c.line, c.column, c.end_line, c.end_column)
                  for c in result.changes)


@pytest.mark.parametrize("produce_output", [False, True], ids=["check", "apply"])
def test_end_positions_are_the_end_of_the_changed_code(produce_output):
    assert _spans(produce_output) == [
        # a backslash continuation keeps its own indentation
        ("assert-to-raise", 10, 5, 11, 38),
        # columns count characters, not UTF-8 bytes
        ("assert-to-raise", 12, 5, 12, 48),
        # a call spread over three lines ends at its closing parenthesis
        ("strict-load-state-dict", 3, 9, 5, 10),
        ("strict-load-state-dict", 6, 9, 6, 36),
    ]


def test_the_cache_keeps_end_positions(tmp_path):
    settings = EngineSettings(codemods=("strict-load-state-dict",), produce_output=False)
    result = process_source(SOURCE.encode(), tmp_path / "train.py", settings)
    cache = ResultCache.at(tmp_path, settings)
    key = cache.key(tmp_path / "train.py", SOURCE.encode())
    cache.put(key, result)
    cached = cache.get(key, tmp_path / "train.py")
    assert cached is not None
    assert cached.changes == result.changes
    assert {(c.end_line, c.end_column) for c in cached.changes} == {(5, 10), (6, 36)}
