"""`torchfix check`: the CI gate. It decides on CPython's tree and never loads libcst."""

# No `from __future__ import annotations`: typer reads the commands' annotations on every
# run, and a string annotation costs it a compile and an eval each.

from dataclasses import replace
from typing import Annotated

import typer

from torchfix.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    emit,
    print_notices,
    print_problems,
    print_warnings,
    problems_of,
    run_pipeline,
    stderr,
    usage_error,
    warnings_of,
)
from torchfix.cli.options import (
    ConfigOpt,
    ExcludeOpt,
    ExtendSelectOpt,
    FormatOpt,
    GeneratedOpt,
    IgnoreOpt,
    JobsOpt,
    NoCacheOpt,
    PathsArg,
    QuietOpt,
    SelectOpt,
    StdinFilenameOpt,
    UnsafeOpt,
    run_options,
)
from torchfix.output.formats import (
    FIX_FORMATS,
    SELF_CONTAINED,
    TEXT_FORMATS,
    OutputFormat,
    canonical,
)


def check(
    paths: PathsArg = None,
    select: SelectOpt = None,
    extend_select: ExtendSelectOpt = None,
    ignore: IgnoreOpt = None,
    unsafe_fixes: UnsafeOpt = None,
    jobs: JobsOpt = None,
    output_format: FormatOpt = OutputFormat.full,
    config: ConfigOpt = None,
    exclude: ExcludeOpt = None,
    include_generated: GeneratedOpt = None,
    no_cache: NoCacheOpt = False,
    quiet: QuietOpt = False,
    show_all: Annotated[
        bool, typer.Option("--show-all", help="Also list the findings that do not fail the "
                           "check (unsafe fixes not enabled, no automatic fix).")
    ] = False,
    statistics: Annotated[
        bool, typer.Option("--statistics", help="Print a count per codemod and safety "
                           "instead of the findings.")
    ] = False,
    exit_zero: Annotated[
        bool, typer.Option("--exit-zero", help="Exit 0 even when fixes are pending (files "
                           "that cannot be processed still exit 1).")
    ] = False,
    stdin_filename: StdinFilenameOpt = None,
) -> None:
    """List the findings that fail the check; exit 1 if `apply` would change anything
    (the CI gate)."""
    from torchfix.output import render, render_statistics
    from torchfix.output.data import build_report, hidden_summary
    from torchfix.output.report import Summary, print_summary

    chosen = canonical(output_format)
    if statistics and chosen not in TEXT_FORMATS | {OutputFormat.json, OutputFormat.json_lines}:
        usage_error(f"--statistics prints a table or json, not {chosen.value}")
    options = replace(
        run_options(select, ignore, exclude, unsafe_fixes, include_generated, config, jobs,
                    no_cache, extend_select),
        # Making the new text costs more than finding the changes: only for formats that
        # carry the fixes' edits.
        produce_output=chosen in FIX_FORMATS and not statistics,
        fix_edits=chosen in FIX_FORMATS and not statistics,
    )
    if stdin_filename is not None:
        from torchfix.cli.stdin import read_stdin, stdin_outcome

        outcome = stdin_outcome(read_stdin(paths), stdin_filename, options)
    else:
        outcome = run_pipeline(paths, options, quiet)
    print_notices(outcome, quiet)
    problems = problems_of(outcome)
    summary = Summary.of(outcome.results, problems, outcome.seconds)
    report = build_report("check", outcome.root, outcome.results, problems,
                          warnings_of(outcome), summary)
    if statistics:
        emit(render_statistics(report, chosen))
    else:
        emit(render(report, chosen, show_all))
    if statistics or chosen not in SELF_CONTAINED:
        print_problems(problems)
        print_warnings(report.warnings, quiet)
    if chosen in TEXT_FORMATS and not quiet and (outcome.results or problems):
        print_summary(stderr, summary, "would change", command="check", table=not statistics)
        hidden = None if show_all or statistics else hidden_summary(report)
        if hidden is not None:
            stderr().print(hidden, markup=False)
    failed = bool(report.failing) and not exit_zero
    raise typer.Exit(EXIT_FINDINGS if failed or problems else EXIT_OK)
