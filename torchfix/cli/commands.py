"""The typer application: every command registered, none of their work imported.

A command's module imports typer and the shared options only; what it runs (the engine,
git, renderers, rich) is imported inside the command, so each command pays only for what
it uses.
"""

from __future__ import annotations

from typing import Annotated

import typer

from torchfix import __version__
from torchfix.cli import apply, batch, check, info, undo

app = typer.Typer(
    name="torchfix",
    help="Safe, idempotent codemods for PyTorch code.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # click's plain help wraps every line to the terminal; rich's option tables cut names
    # and help short ("--include-gener…") in 80 columns.
    rich_markup_mode=None,
)

app.command()(apply.apply)
app.command()(undo.undo)
app.command()(apply.diff)
app.command()(check.check)
app.command("list")(info.list_codemods)
app.command()(info.explain)
app.command()(info.server)
app.command()(info.selftest)
app.command()(batch.batch)


def _version(value: bool) -> None:
    if value:
        print(f"torchfix {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True,
                     help="Show the version and exit."),
    ] = False,
) -> None:
    """Safe, idempotent codemods for PyTorch code."""
