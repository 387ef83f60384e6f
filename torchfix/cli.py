"""The `torchfix` command. Commands are thin: they parse options, run the pipeline and
hand its results to a sink (writer, diff, report)."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Sequence
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from torchfix import __version__, registry
from torchfix.config import ConfigError
from torchfix.diffs import display_path, unified_diff
from torchfix.pipeline import RunOptions, RunOutcome, run
from torchfix.report import (
    Problem,
    ProgressBar,
    Summary,
    finding_line,
    json_document,
    print_colored_diff,
    print_selftest,
    print_summary,
    sorted_findings,
)
from torchfix.writing import WriteError, write_atomically

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2

app = typer.Typer(
    name="torchfix",
    help="Safe, idempotent codemods for PyTorch code.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


# -- shared options ----------------------------------------------------------------------

PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(help="Files or folders to process (default: the current folder).",
                   show_default=False),
]
SelectOpt = Annotated[
    list[str] | None,
    typer.Option("--select", help="Run only these codemods (comma-separated; ALL for every "
                                   "one).", show_default=False),
]
IgnoreOpt = Annotated[
    list[str] | None,
    typer.Option("--ignore", help="Skip these codemods (comma-separated).", show_default=False),
]
UnsafeOpt = Annotated[
    bool | None,
    typer.Option("--unsafe-fixes/--no-unsafe-fixes",
                 help="Also apply fixes marked unsafe.", show_default=False),
]
JobsOpt = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, help="Worker processes (default: all cores).",
                 show_default=False),
]
FormatOpt = Annotated[
    OutputFormat, typer.Option("--format", help="Output format for findings and summary.")
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", help="Read settings from this pyproject.toml instead of the "
                                   "nearest one.", show_default=False),
]
ExcludeOpt = Annotated[
    list[str] | None,
    typer.Option("--exclude", help="Skip files matching this gitignore-style pattern "
                                    "(repeatable).", show_default=False),
]
GeneratedOpt = Annotated[
    bool | None,
    typer.Option("--include-generated/--skip-generated",
                 help="Also process files marked @generated.", show_default=False),
]
NoCacheOpt = Annotated[
    bool, typer.Option("--no-cache", help="Process every file again, ignoring cached results.")
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")]
VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Print every change.")]


def _names(values: Sequence[str] | None) -> list[str] | None:
    if values is None:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def _options(
    select: list[str] | None,
    ignore: list[str] | None,
    exclude: list[str] | None,
    unsafe_fixes: bool | None,
    include_generated: bool | None,
    config: Path | None,
    jobs: int | None,
    no_cache: bool,
) -> RunOptions:
    return RunOptions(
        select=_names(select),
        ignore=_names(ignore) or [],
        exclude=exclude or [],
        unsafe_fixes=unsafe_fixes,
        include_generated=include_generated,
        config=config,
        jobs=jobs,
        use_cache=not no_cache,
    )


# -- running -----------------------------------------------------------------------------

stdout = Console(highlight=False, soft_wrap=True)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)


def _run(paths: list[Path] | None, options: RunOptions, quiet: bool) -> RunOutcome:
    with ProgressBar(stderr, enabled=not quiet) as progress:
        try:
            return run(
                paths or [Path(".")],
                options,
                on_discovered=progress.set_total,
                on_result=lambda _result: progress.advance(),
            )
        except ConfigError as exc:
            _usage_error(str(exc))


def _usage_error(message: str) -> NoReturn:
    stderr.print(f"torchfix: error: {message}", markup=False)
    raise typer.Exit(EXIT_USAGE)


def _problems(outcome: RunOutcome) -> list[Problem]:
    problems = [Problem(path, message) for path, message in outcome.discovery.errors]
    problems += [
        Problem(result.path, result.error.message, result.error.internal)
        for result in outcome.results
        if result.error is not None
    ]
    return problems


def _print_notices(outcome: RunOutcome, quiet: bool) -> None:
    if quiet:
        return
    for path, message in outcome.discovery.notices:
        stderr.print(f"{path}: note: {message}", markup=False)


def _print_problems(problems: Sequence[Problem]) -> None:
    for problem in problems:
        stderr.print(problem.line(), markup=False, style="red")


def _finish(
    outcome: RunOutcome,
    problems: list[Problem],
    output_format: OutputFormat,
    quiet: bool,
    verb: str,
    failed: bool,
) -> NoReturn:
    summary = Summary.of(outcome.results, problems, outcome.seconds)
    if output_format is OutputFormat.json:
        stdout.out(json_document(outcome.results, problems, summary), highlight=False)
    else:
        _print_problems(problems)
        # No files at all (e.g. pre-commit passing none of ours) is a quiet success.
        if not quiet and (outcome.results or problems):
            print_summary(stderr, summary, verb)
    raise typer.Exit(EXIT_FINDINGS if failed or problems else EXIT_OK)


# -- commands ----------------------------------------------------------------------------


@app.command()
def apply(
    paths: PathsArg = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show a coloured diff; write nothing.")
    ] = False,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    unsafe_fixes: UnsafeOpt = None,
    jobs: JobsOpt = None,
    output_format: FormatOpt = OutputFormat.text,
    config: ConfigOpt = None,
    exclude: ExcludeOpt = None,
    include_generated: GeneratedOpt = None,
    no_cache: NoCacheOpt = False,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
) -> None:
    """Rewrite files in place (safe fixes; --unsafe-fixes for all)."""
    options = _options(select, ignore, exclude, unsafe_fixes, include_generated, config, jobs,
                       no_cache)
    outcome = _run(paths, options, quiet)
    _print_notices(outcome, quiet)
    problems = _problems(outcome)
    text_output = output_format is OutputFormat.text
    for result in outcome.results:
        rewrite = result.rewrite()
        if rewrite is None:
            continue
        if dry_run:
            if text_output:
                diff = unified_diff(*rewrite, display_path(result.path))
                print_colored_diff(stdout, diff, result.encoding)
            continue
        try:
            write_atomically(result.path, *rewrite)
        except WriteError as exc:
            problems.append(Problem(result.path, str(exc)))
            continue
        if verbose and text_output:
            for change in sorted(result.changes, key=lambda c: (c.line, c.column)):
                if change.applied:
                    stderr.print(f"fixed {finding_line(result.path, change)}", markup=False)
    verb = "would change" if dry_run else "changed"
    _finish(outcome, problems, output_format, quiet, verb, failed=False)


@app.command()
def diff(
    paths: PathsArg = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    unsafe_fixes: UnsafeOpt = None,
    jobs: JobsOpt = None,
    config: ConfigOpt = None,
    exclude: ExcludeOpt = None,
    include_generated: GeneratedOpt = None,
    no_cache: NoCacheOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Print a unified diff that `git apply` accepts; write nothing."""
    options = _options(select, ignore, exclude, unsafe_fixes, include_generated, config, jobs,
                       no_cache)
    outcome = _run(paths, options, quiet)
    _print_notices(outcome, quiet)
    for result in outcome.results:
        rewrite = result.rewrite()
        if rewrite is not None:
            sys.stdout.buffer.write(unified_diff(*rewrite, display_path(result.path)))
    sys.stdout.buffer.flush()
    _finish(outcome, _problems(outcome), OutputFormat.text, quiet, "would change", False)


@app.command()
def check(
    paths: PathsArg = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    unsafe_fixes: UnsafeOpt = None,
    jobs: JobsOpt = None,
    output_format: FormatOpt = OutputFormat.text,
    config: ConfigOpt = None,
    exclude: ExcludeOpt = None,
    include_generated: GeneratedOpt = None,
    no_cache: NoCacheOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """List findings; exit 1 if `apply` would change anything (the CI gate)."""
    options = replace(
        _options(select, ignore, exclude, unsafe_fixes, include_generated, config, jobs,
                       no_cache),
        produce_output=False,
    )
    outcome = _run(paths, options, quiet)
    _print_notices(outcome, quiet)
    pending = any(change.applied for result in outcome.results for change in result.changes)
    if output_format is OutputFormat.text:
        for path, change in sorted_findings(outcome.results):
            stdout.out(finding_line(path, change), highlight=False)
    _finish(outcome, _problems(outcome), output_format, quiet, "would change", pending)


@app.command("list")
def list_codemods() -> None:
    """Show every codemod: name, summary, fix safety, whether it is on by default."""
    table = Table(header_style="bold")
    table.add_column("name", no_wrap=True)
    table.add_column("summary")
    table.add_column("fixes", no_wrap=True)
    table.add_column("default", no_wrap=True)
    for codemod in registry.all_codemods():
        table.add_row(
            codemod.name,
            codemod.summary,
            codemod.fix_safety,
            "on" if codemod.enabled_by_default else "off",
        )
    stdout.print(table)


@app.command()
def explain(name: Annotated[str, typer.Argument(help="A codemod name.")]) -> None:
    """Print a codemod's documentation with its before/after example."""
    try:
        codemod = registry.get(name)
    except registry.UnknownCodemodError as exc:
        _usage_error(str(exc))
    stdout.print(Markdown(f"# {codemod.name}\n\n{inspect.getdoc(codemod) or codemod.summary}"))
    if codemod.options:
        stdout.print(Markdown("## Options\n\n" + "\n".join(
            f"- `{option.name}` (default `{option.default!r}`): {option.help}"
            for option in codemod.options
        )))


@app.command()
def selftest(
    select: SelectOpt = None,
    gpu: Annotated[
        bool, typer.Option("--gpu", help="Also run the CUDA scenarios (fails without CUDA).")
    ] = False,
) -> None:
    """Run the golden cases and behavioural smoke scenarios against this torch and machine."""
    from torchfix.selftest import planned, run_selftest

    names = _names(select)
    try:
        if names is not None:
            registry.select(names)
    except registry.UnknownCodemodError as exc:
        _usage_error(str(exc))
    selected = None if names is None or registry.ALL_SELECTOR in names else names
    cases, scenarios = planned(selected)
    with ProgressBar(stderr, enabled=True) as progress:
        progress.set_total(len(cases) + len(scenarios))
        checks = run_selftest(selected, gpu, on_check=lambda _check: progress.advance())
    print_selftest(stdout, checks, _torch_description())
    raise typer.Exit(EXIT_FINDINGS if any(c.status == "failed" for c in checks) else EXIT_OK)


def _torch_description() -> str:
    try:
        import torch
    except ImportError:
        return "torch: not installed (smoke scenarios skipped)"
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no CUDA device"
    return f"torch {torch.__version__}, {device}"


def _version(value: bool) -> None:
    if value:
        stdout.print(f"torchfix {__version__}")
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


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        stderr.print("torchfix: interrupted")
        sys.exit(130)
