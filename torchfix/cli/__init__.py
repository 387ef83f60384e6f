"""The `torchfix` command. Commands are thin: they parse options, run the pipeline and
hand its results to a sink (writer, diff, report).

    commands.py the typer application: every command registered
    options.py  the shared options
    common.py   running the pipeline, printing problems and summaries, exit codes
    check.py    check                apply.py   apply, diff (and --patch-dir, --commit)
    undo.py     undo                 batch.py   batch
    info.py     list, explain, server, selftest
    stdin.py    --stdin-filename
"""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    """The console script (and `python -m torchfix`)."""
    if sys.argv[1:] == ["--version"]:
        # Asked by editors and scripts on every start: answered before loading the CLI.
        from torchfix import __version__

        print(f"torchfix {__version__}")
        return
    from torchfix.cli.commands import app_for

    try:
        app_for(sys.argv[1:])()
    except KeyboardInterrupt:
        sys.stderr.write("torchfix: interrupted\n")
        sys.exit(130)


def __getattr__(name: str) -> Any:
    # `from torchfix.cli import app`, for tests and tools that run the CLI in-process.
    if name == "app":
        from torchfix.cli.commands import app

        return app
    raise AttributeError(f"module 'torchfix.cli' has no attribute {name!r}")
