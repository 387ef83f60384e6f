"""`--stdin-filename PATH`: the source comes from stdin and is treated as the file at PATH
(ruff's convention, for editors and tools that pipe an unsaved buffer through)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from torchfix.cli.common import usage_error

if TYPE_CHECKING:
    from torchfix.engine.pipeline import RunOptions, RunOutcome


def read_stdin(paths: list[Path] | None) -> bytes:
    """The source on stdin; `-` (or nothing) must be the only path given."""
    if paths and [str(path) for path in paths] != ["-"]:
        usage_error("--stdin-filename reads the source from stdin: give `-` as the only "
                    "path, or none")
    return sys.stdin.buffer.read()


def stdin_outcome(data: bytes, stdin_filename: Path, options: RunOptions) -> RunOutcome:
    """The run over `data`, as if it were the file at `stdin_filename`."""
    from torchfix.engine.config import ConfigError
    from torchfix.engine.pipeline import run_source

    try:
        return run_source(data, stdin_filename, options)
    except ConfigError as exc:
        usage_error(str(exc))
