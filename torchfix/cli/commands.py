"""The typer application: every command registered, none of their work imported.

A command's module imports typer and the shared options only; what it runs (the engine,
git, renderers, rich) is imported inside the command, so each command pays only for what
it uses.
"""

# No `from __future__ import annotations`: typer reads the commands' annotations on every
# run, and a string annotation costs it a compile and an eval each.

import functools
import importlib
from collections.abc import Iterable, Sequence
from typing import Annotated

import typer

from torchfix import __version__

# Every command: its name, and the module of this package and function that define it
# (imported only when the application is made with that command).
COMMANDS: dict[str, tuple[str, str]] = {
    "apply": ("apply", "apply"),
    "undo": ("undo", "undo"),
    "diff": ("apply", "diff"),
    "check": ("check", "check"),
    "list": ("info", "list_codemods"),
    "explain": ("info", "explain"),
    "server": ("info", "server"),
    "selftest": ("info", "selftest"),
    "batch": ("batch", "batch"),
}
def make_app(names: Iterable[str] = COMMANDS) -> typer.Typer:
    """The typer application with the commands `names` (all of them by default)."""
    made = typer.Typer(
        name="torchfix",
        help="Safe, idempotent codemods for PyTorch code.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        # click's plain help wraps every line to the terminal; rich's option tables cut
        # names and help short ("--include-gener…") in 80 columns.
        rich_markup_mode=None,
    )
    for name in names:
        module, function = COMMANDS[name]
        defined = importlib.import_module(f"torchfix.cli.{module}")
        made.command(name)(getattr(defined, function))
    made.callback()(_main)
    return made


def app_for(arguments: Sequence[str]) -> typer.Typer:
    """The application for one command line: typer turns every registered command into a
    click command on each call (their signatures, types and help: about a fifth of a
    one-file `check`), so a command line that names a command gets an application that
    holds only that one. Anything else (`--help`, no command, a mistyped one) gets them
    all, for the full help and click's suggestions."""
    name = arguments[0] if arguments else ""
    if name in COMMANDS:
        return make_app([name])
    return whole_app()


def _version(value: bool) -> None:
    if value:
        print(f"torchfix {__version__}")
        raise typer.Exit()


def _main(
    context: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True,
                     help="Show the version and exit."),
    ] = False,
) -> None:
    """Safe, idempotent codemods for PyTorch code."""
    # How to make the whole app, for a command that runs others (selftest runs the golden
    # cases through it) without importing this module.
    context.obj = whole_app


@functools.cache
def whole_app() -> typer.Typer:
    """The application with every command."""
    return make_app()


def __getattr__(name: str) -> typer.Typer:
    # `commands.app`: made on first use, since making it imports every command's module.
    if name == "app":
        return whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
