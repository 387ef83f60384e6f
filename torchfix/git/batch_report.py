"""`torchfix batch --report FILE`: each repository's outcome as one JSON line, written as
it finishes, so a long campaign can be followed (`tail -f`) and what it did survives an
interruption."""

from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import TextIO

from torchfix.git.batch import RepoOutcome


class JsonLinesReport:
    """Replaces FILE at the start of a run; one object per repository (the fields of
    `--format json`'s rows), flushed line by line."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO = path.open("w", encoding="utf-8")  # OSError: the caller's

    def write(self, outcome: RepoOutcome) -> None:
        self._file.write(json.dumps(outcome.as_dict()) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> JsonLinesReport:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
