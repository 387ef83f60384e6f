"""`torchfix undo`: take back a run of `apply` from its run record."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from torchfix.cli.common import EXIT_FINDINGS, EXIT_OK, say, stderr, usage_error
from torchfix.cli.options import ConfigOpt, QuietOpt


def undo(
    run_name: Annotated[
        str | None,
        typer.Argument(metavar="RUN", help="The run: its folder name (e.g. "
                       "20261122-101500-123) or path (default: the latest run not undone).",
                       show_default=False),
    ] = None,
    record_dir: Annotated[
        Path | None,
        typer.Option("--record-dir", metavar="DIR", help="Look for runs in DIR (default: as "
                     "apply records them from here).", show_default=False),
    ] = None,
    config: ConfigOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Take back a run of `apply`: restore every file it changed, or touch nothing if one
    of them changed since."""
    from torchfix.cli.apply import _default_record_dir
    from torchfix.engine.config import ConfigError
    from torchfix.git.record import (
        RecordError,
        UndoWriteError,
        find_run,
        plan_undo,
        undo_root,
    )
    from torchfix.git.record import undo as undo_run
    from torchfix.output.report import shown_path

    try:
        folder = Path(os.path.abspath(record_dir)) if record_dir else _default_record_dir(config)
        recorded = find_run(folder, run_name)
        plan = plan_undo(recorded, undo_root(recorded.folder, config))
    except (RecordError, ConfigError) as exc:
        usage_error(str(exc))
    if plan.problems:
        for path, message in plan.problems:
            stderr().print(f"{shown_path(path)}: error: {message}", markup=False, style="red")
        count = len(plan.problems)
        usage_error(f"nothing undone: {count} of {len(recorded.files)} file"
                     f"{'s' * (len(recorded.files) != 1)} of run {recorded.name} "
                     f"{'is' if count == 1 else 'are'} not as the run left "
                     f"{'it' if count == 1 else 'them'}")
    try:
        undo_run(recorded, plan)
    except UndoWriteError as exc:
        stderr().print(f"{shown_path(exc.path)}: error: {exc}", markup=False, style="red")
        state = ("the files restored before it were put back: nothing undone"
                 if exc.rolled_back else "some files could not be put back: check them")
        stderr().print(f"torchfix: error: undo of run {recorded.name} failed; {state}",
                     markup=False)
        raise typer.Exit(EXIT_FINDINGS) from None
    except RecordError as exc:
        stderr().print(f"torchfix: error: {exc}", markup=False)
        raise typer.Exit(EXIT_FINDINGS) from None
    if not quiet:
        for restore in plan.restores:
            verb = "removed" if restore.created else "restored"
            say(f"{verb} {shown_path(restore.path)}")
        for name in plan.not_written:
            stderr().print(f"{name}: note: never written (the run was interrupted); left alone",
                         markup=False)
        count = len(plan.restores)
        stderr().print(f"torchfix: undid run {recorded.name}: {count} file"
                     f"{'s' * (count != 1)} restored", markup=False)
    raise typer.Exit(EXIT_OK)


