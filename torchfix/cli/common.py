"""What every command does around the pipeline: run it with a progress bar, print the
problems, warnings and summary, and exit with the documented code.

Imports stay inside the functions: a command that never prints a table never loads rich,
and `torchfix --version` loads none of this.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from torchfix.output.formats import OutputFormat, canonical

if TYPE_CHECKING:
    from rich.console import Console

    from torchfix.engine.pipeline import RunOptions, RunOutcome
    from torchfix.output.data import ToolWarning
    from torchfix.output.report import Problem, RecordNote

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


@cache
def stdout() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


@cache
def stderr() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def say(message: str) -> None:
    """One plain line on stderr, as it is (no markup)."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def usage_error(message: str) -> NoReturn:
    say(f"torchfix: error: {message}")
    raise typer.Exit(EXIT_USAGE)


def run_pipeline(paths: list[Path] | None, options: RunOptions, quiet: bool) -> RunOutcome:
    """One run over the paths, with a progress bar on a terminal."""
    from torchfix.engine.config import ConfigError
    from torchfix.engine.pipeline import run
    from torchfix.output.report import ProgressBar

    with ProgressBar(stderr, enabled=not quiet) as progress:
        try:
            return run(
                paths or [Path(".")],
                options,
                on_discovered=progress.set_total,
                on_result=lambda _result: progress.advance(),
            )
        except ConfigError as exc:
            usage_error(str(exc))


def problems_of(outcome: RunOutcome) -> list[Problem]:
    from torchfix.output.report import Problem

    found = [Problem(path, message) for path, message in outcome.discovery.errors]
    found += [
        Problem(result.path, result.error.message, result.error.internal)
        for result in outcome.results
        if result.error is not None
    ]
    return found


def print_notices(outcome: RunOutcome, quiet: bool) -> None:
    if quiet:
        return
    for path, message in outcome.discovery.notices:
        say(f"{path}: note: {message}")


def print_problems(problems: Sequence[Problem]) -> None:
    for problem in problems:
        stderr().print(problem.line(), markup=False, style="red")


def warnings_of(outcome: RunOutcome) -> list[ToolWarning]:
    from torchfix.output.data import ToolWarning

    return [ToolWarning(*warning) for warning in outcome.warnings]


def print_warnings(warnings: Sequence[ToolWarning], quiet: bool) -> None:
    if quiet:
        return
    from torchfix.output.report import shown_path

    for warning in warnings:
        stderr().print(f"{shown_path(warning.path)}:{warning.line}:{warning.column}: "
                       f"warning: {warning.message}", markup=False, style="yellow")


def emit(text: str) -> None:
    """Write a rendered output exactly as rendered (rich would add a newline)."""
    if text:
        sys.stdout.write(text)
        sys.stdout.flush()


def finish(
    outcome: RunOutcome,
    problems: list[Problem],
    output_format: OutputFormat,
    quiet: bool,
    verb: str,
    failed: bool,
    record: RecordNote | None = None,
    written: Collection[Path] | None = None,
) -> NoReturn:
    """Print the outcome of `apply` or `diff` and exit with its code.

    `written`: for a run that writes, the files it wrote (only those count as changed).
    """
    from torchfix.output.report import Summary, print_summary

    summary = Summary.of(outcome.results, problems, outcome.seconds, written)
    summary.record = record
    warnings = warnings_of(outcome)
    if canonical(output_format) is OutputFormat.json:
        from torchfix.output import render
        from torchfix.output.data import build_report

        report = build_report("apply", outcome.root, outcome.results, problems, warnings,
                              summary, set(written or ()))
        emit(render(report, OutputFormat.json))
    else:
        print_problems(problems)
        print_warnings(warnings, quiet)
        # No files at all (e.g. pre-commit passing none of ours) is a quiet success.
        if not quiet and (outcome.results or problems):
            print_summary(stderr, summary, verb)
    raise typer.Exit(EXIT_FINDINGS if failed or problems else EXIT_OK)
