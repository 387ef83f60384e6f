"""The `torchfix` command. Commands are thin: they parse options, run the pipeline and
hand its results to a sink (writer, diff, report)."""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import shlex
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from torchfix import __version__
from torchfix.engine.config import ConfigError, find_config, load_config
from torchfix.engine.pipeline import RunOptions, RunOutcome, project_root, resolve, run
from torchfix.engine.process import FileResult
from torchfix.engine.writing import WriteError, write_atomically
from torchfix.git.batch import (
    DEFAULT_JOBS,
    DEFAULT_WORKDIR,
    BatchOptions,
    BatchUsageError,
    RepoOutcome,
    batch_table,
    read_targets,
    run_batch,
)
from torchfix.git.diffs import patch_path, unified_diff
from torchfix.git.gitops import (
    CommitOptions,
    GitError,
    commit_rewrite,
    open_for_paths,
    parse_identity,
    patch_preflight,
    preflight,
    write_patch_series,
)
from torchfix.git.gitreport import commit_report, patch_report
from torchfix.git.record import (
    DEFAULT_RECORD_DIR,
    PlannedFile,
    RecordError,
    RunRecorder,
    UndoWriteError,
    find_run,
    plan_file,
    plan_undo,
    prune_runs,
    record_dir_for,
)
from torchfix.git.record import undo as undo_run
from torchfix.git.verify_command import DEFAULT_TIMEOUT_SECONDS, VerifyCommandError, VerifySpec
from torchfix.output import (
    FIX_FORMATS,
    SELF_CONTAINED,
    TEXT_FORMATS,
    OutputFormat,
    canonical,
    render,
    render_statistics,
)
from torchfix.output.data import ToolWarning, build_report, hidden_summary
from torchfix.output.report import (
    Problem,
    ProgressBar,
    RecordNote,
    Summary,
    finding_line,
    print_colored_diff,
    print_selftest,
    print_summary,
    shown_path,
)
from torchfix.rewrite import registry

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2

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


class BatchFormat(str, Enum):
    text = "text"
    json = "json"


# -- shared options ----------------------------------------------------------------------

PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(metavar="PATH", help="Files or folders to process (default: the "
                   "current folder).", show_default=False),
]
SelectOpt = Annotated[
    list[str] | None,
    typer.Option("--select", metavar="NAMES", help="Run only these codemods "
                 "(comma-separated; ALL for every one).", show_default=False),
]
IgnoreOpt = Annotated[
    list[str] | None,
    typer.Option("--ignore", metavar="NAMES", help="Skip these codemods (comma-separated).",
                 show_default=False),
]
UnsafeOpt = Annotated[
    bool | None,
    typer.Option("--unsafe-fixes/--no-unsafe-fixes",
                 help="Also apply fixes marked unsafe.", show_default=False),
]
JobsOpt = Annotated[
    int | None,
    typer.Option("--jobs", "-j", min=1, metavar="N", help="Worker processes (default: all "
                 "cores).",
                 show_default=False),
]
FormatOpt = Annotated[
    OutputFormat,
    typer.Option("--output-format", "--format", metavar="FORMAT",
                 help="How to print findings: full (text, the default), concise, grouped, "
                      "json, json-lines, sarif, github, gitlab or junit.",
                 show_default=False),
]
ApplyFormatOpt = Annotated[
    OutputFormat,
    typer.Option("--output-format", "--format", metavar="FORMAT",
                 help="full (text, the default) or json.", show_default=False),
]
ExtendSelectOpt = Annotated[
    list[str] | None,
    typer.Option("--extend-select", metavar="NAMES",
                 help="Run these codemods too, on top of the selection.", show_default=False),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", metavar="FILE", help="Read settings from this pyproject.toml "
                 "instead of the nearest one.", show_default=False),
]
ExcludeOpt = Annotated[
    list[str] | None,
    typer.Option("--exclude", metavar="GLOB", help="Skip files matching this "
                 "gitignore-style pattern (repeatable).", show_default=False),
]
GeneratedOpt = Annotated[
    bool | None,
    typer.Option("--include-generated/--skip-generated",
                 help="Also process files marked @generated.", show_default=False),
]
NoCacheOpt = Annotated[
    bool, typer.Option("--no-cache", help="Process every file again, ignoring cached results.")
]
QuietOpt = Annotated[
    bool, typer.Option("--quiet", "-q", help="Print only findings and errors: no summary, "
                       "notes or warnings.")
]
RecordDirOpt = Annotated[
    Path | None,
    typer.Option("--record-dir", metavar="DIR", help="Keep run records in DIR (default: "
                 ".torchfix/runs in the project root, or record-dir in the config).",
                 show_default=False),
]
NoRecordOpt = Annotated[
    bool, typer.Option("--no-record", help="Do not record the run (no patch, no undo).")
]
VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Print every change.")]


# -- git options (apply --patch-dir/--commit, batch) -------------------------------------

PatchDirOpt = Annotated[
    Path | None,
    typer.Option("--patch-dir", metavar="DIR", help="Write one `git format-patch` file per "
                 "codemod into DIR, for `git am`; change no file.", show_default=False),
]
CommitOpt = Annotated[
    bool, typer.Option("--commit", help="Commit on a new branch, one commit per codemod.")
]
BranchOpt = Annotated[
    str | None,
    typer.Option("--branch", metavar="NAME", help="Branch to create (default: "
                 "torchfix/<codemods>, or torchfix/<date> for more than three).",
                 show_default=False),
]
SquashOpt = Annotated[bool, typer.Option("--squash", help="One commit (or patch) for all.")]
AllowDirtyOpt = Annotated[
    bool, typer.Option("--allow-dirty", help="Go ahead with uncommitted changes; files that "
                                             "have some are left out, never committed.")
]
AuthorOpt = Annotated[
    str | None,
    typer.Option("--author", metavar="'NAME <EMAIL>'", help="Commit as 'Name <email>' "
                 "(default: the repository's git identity).", show_default=False),
]
VerifyOpt = Annotated[
    str | None,
    typer.Option("--verify", metavar="CMD", help="Run CMD in the repository before and after "
                 "the rewrite; if it then fails, roll back and commit nothing.",
                 show_default=False),
]
VerifyShellOpt = Annotated[
    bool, typer.Option("--verify-shell", help="Run the --verify command through the shell.")
]
VerifyTimeoutOpt = Annotated[
    float, typer.Option("--verify-timeout", min=1, metavar="SECONDS",
                        help="How long each --verify run may take.")
]


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
    extend_select: list[str] | None = None,
) -> RunOptions:
    return RunOptions(
        select=_names(select),
        extend_select=_names(extend_select) or [],
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


def _warnings(outcome: RunOutcome) -> list[ToolWarning]:
    return [ToolWarning(*warning) for warning in outcome.warnings]


def _print_warnings(warnings: Sequence[ToolWarning], quiet: bool) -> None:
    if quiet:
        return
    for warning in warnings:
        stderr.print(f"{shown_path(warning.path)}:{warning.line}:{warning.column}: warning: "
                     f"{warning.message}", markup=False, style="yellow")


def _emit(text: str) -> None:
    """Write a rendered output exactly as rendered (rich would add a newline)."""
    if text:
        sys.stdout.write(text)
        sys.stdout.flush()


def _finish(
    outcome: RunOutcome,
    problems: list[Problem],
    output_format: OutputFormat,
    quiet: bool,
    verb: str,
    failed: bool,
    record: RecordNote | None = None,
    written: Sequence[Path] = (),
) -> NoReturn:
    summary = Summary.of(outcome.results, problems, outcome.seconds)
    summary.record = record
    warnings = _warnings(outcome)
    if canonical(output_format) is OutputFormat.json:
        report = build_report("apply", outcome.root, outcome.results, problems, warnings,
                              summary, set(written))
        _emit(render(report, OutputFormat.json))
    else:
        _print_problems(problems)
        _print_warnings(warnings, quiet)
        # No files at all (e.g. pre-commit passing none of ours) is a quiet success.
        if not quiet and (outcome.results or problems):
            print_summary(stderr, summary, verb)
    raise typer.Exit(EXIT_FINDINGS if failed or problems else EXIT_OK)


def _apply_format(output_format: OutputFormat) -> OutputFormat:
    chosen = canonical(output_format)
    if chosen not in (OutputFormat.full, OutputFormat.json):
        _usage_error(f"--output-format {chosen.value} is for `torchfix check`; this command "
                     "prints full (text) or json")
    return chosen


# -- commands ----------------------------------------------------------------------------


@app.command()
def apply(
    paths: PathsArg = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show a coloured diff; write nothing.")
    ] = False,
    select: SelectOpt = None,
    extend_select: ExtendSelectOpt = None,
    ignore: IgnoreOpt = None,
    unsafe_fixes: UnsafeOpt = None,
    jobs: JobsOpt = None,
    output_format: ApplyFormatOpt = OutputFormat.full,
    config: ConfigOpt = None,
    exclude: ExcludeOpt = None,
    include_generated: GeneratedOpt = None,
    no_cache: NoCacheOpt = False,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
    record_dir: RecordDirOpt = None,
    no_record: NoRecordOpt = False,
    patch_dir: PatchDirOpt = None,
    commit: CommitOpt = False,
    branch: BranchOpt = None,
    squash: SquashOpt = False,
    allow_dirty: AllowDirtyOpt = False,
    author: AuthorOpt = None,
    verify: VerifyOpt = None,
    verify_shell: VerifyShellOpt = False,
    verify_timeout: VerifyTimeoutOpt = DEFAULT_TIMEOUT_SECONDS,
) -> None:
    """Rewrite files in place (safe fixes; --unsafe-fixes for all) and record the run
    (its patch, for review and `torchfix undo`); or write patches (--patch-dir) or
    commits on a branch (--commit) instead."""
    if no_record and record_dir is not None:
        _usage_error("choose one of --record-dir and --no-record")
    output_format = _apply_format(output_format)
    options = _options(select, ignore, exclude, unsafe_fixes, include_generated, config, jobs,
                       no_cache, extend_select)
    # The git modes record nothing: --patch-dir changes no file, and a commit is undone
    # with git itself.
    if patch_dir is not None or commit or _git_flags(branch, squash, allow_dirty, author,
                                                     verify, verify_shell):
        commit_options = _commit_options(branch, squash, allow_dirty, author, verify,
                                         verify_shell, verify_timeout)
        _git_apply(paths, options, patch_dir, commit, dry_run, commit_options, output_format,
                   quiet)
    outcome = _run(paths, options, quiet)
    _print_notices(outcome, quiet)
    problems = _problems(outcome)
    text_output = output_format is OutputFormat.full
    rewrites = [result for result in outcome.results if result.rewrite() is not None]
    if dry_run:
        if text_output:
            for result in rewrites:
                old, new = result.rewrite() or (b"", b"")
                diff = unified_diff(old, new, patch_path(result.path, outcome.root))
                print_colored_diff(stdout, diff, result.encoding)
        _finish(outcome, problems, output_format, quiet, "would change", failed=False)
    planned: list[tuple[FileResult, PlannedFile | None]] = [(r, None) for r in rewrites]
    recorder = None
    if not no_record and rewrites:
        planned, recorder = _begin_record(outcome, paths or [Path(".")], rewrites, record_dir,
                                          problems)

    written: list[Path] = []

    def applied(result: FileResult) -> None:
        written.append(result.path)
        if verbose and text_output:
            for change in sorted(result.changes, key=lambda c: (c.line, c.column)):
                if change.applied:
                    stderr.print(f"fixed {finding_line(result.path, change)}", markup=False)

    note = _write_rewrites(planned, recorder, problems, applied, options.config, quiet)
    if note is not None and recorder is not None:
        # Only after a run that recorded: the new run counts among those kept.
        keep = outcome.config.keep_runs
        note = replace(note, pruned=tuple(prune_runs(recorder.folder.parent, keep,
                                                     recorder.name)), keep_runs=keep)
    _finish(outcome, problems, output_format, quiet, "changed", failed=False, record=note,
            written=written)


def _begin_record(
    outcome: RunOutcome,
    paths: list[Path],
    rewrites: list[FileResult],
    record_dir: Path | None,
    problems: list[Problem],
) -> tuple[list[tuple[FileResult, PlannedFile | None]], RunRecorder | None]:
    """Plan the record of every rewrite and write it down before any file is touched.

    A rewrite the record cannot represent is reported and not written; a record folder
    that cannot be made stops the run (exit 2) with nothing written: the user asked for
    a record, and --no-record is there for runs without one.
    """
    planned: list[tuple[FileResult, PlannedFile | None]] = []
    for result in rewrites:
        try:
            planned.append((result, plan_file(result, outcome.root)))
        except RecordError as exc:
            problems.append(Problem(result.path, str(exc), internal=exc.internal))
    if not planned:
        return [], None
    try:
        recorder = RunRecorder.begin(record_dir_for(outcome, record_dir), outcome, paths,
                                     [plan for _result, plan in planned if plan is not None])
    except RecordError as exc:
        _usage_error(f"{exc}; nothing written (--no-record writes without a record)")
    return planned, recorder


def _write_rewrites(
    planned: list[tuple[FileResult, PlannedFile | None]],
    recorder: RunRecorder | None,
    problems: list[Problem],
    applied: Callable[[FileResult], None],
    config: Path | None,
    quiet: bool,
) -> RecordNote | None:
    """Write each file; the record gets exactly the files that were written."""
    try:
        for result, plan in planned:
            rewrite = result.rewrite()
            assert rewrite is not None
            try:
                write_atomically(result.path, *rewrite)
            except WriteError as exc:
                problems.append(Problem(result.path, str(exc)))
                continue
            if recorder is not None and plan is not None:
                recorder.wrote(plan)
            applied(result)
    except BaseException:
        # Interrupted (Ctrl-C) between files: record what was written, then stop.
        if recorder is not None:
            with contextlib.suppress(RecordError):
                patch = recorder.finish(interrupted=True)
                if patch is not None and not quiet:
                    stderr.print(_record_note(recorder, patch, config).line(), markup=False)
        raise
    if recorder is None:
        return None
    try:
        patch = recorder.finish()
    except RecordError as exc:
        problems.append(Problem(recorder.folder, str(exc)))
        return None
    return _record_note(recorder, patch, config) if patch is not None else None


def _record_note(recorder: RunRecorder, patch: Path, config: Path | None) -> RecordNote:
    # Plain `torchfix undo` finds the run when its record folder is the one undo looks in
    # from here; otherwise name the run by its path.
    command = f"torchfix undo {shlex.quote(shown_path(recorder.folder))}"
    with contextlib.suppress(ConfigError, OSError):
        if _default_record_dir(config).resolve() == recorder.folder.parent.resolve():
            command = "torchfix undo"
    return RecordNote(recorder.name, shown_path(recorder.folder), shown_path(patch), command)


def _default_record_dir(config_file: Path | None) -> Path:
    """The record folder `undo` uses from the current folder without --record-dir."""
    if config_file is not None and not config_file.is_file():
        raise ConfigError(f"{config_file}: configuration file not found")
    cwd = Path.cwd()
    config = load_config(config_file or find_config(cwd))
    return config.record_dir or project_root(config, [cwd]) / DEFAULT_RECORD_DIR


@app.command()
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
    try:
        folder = Path(os.path.abspath(record_dir)) if record_dir else _default_record_dir(config)
        recorded = find_run(folder, run_name)
        plan = plan_undo(recorded)
    except (RecordError, ConfigError) as exc:
        _usage_error(str(exc))
    if plan.problems:
        for path, message in plan.problems:
            stderr.print(f"{shown_path(path)}: error: {message}", markup=False, style="red")
        count = len(plan.problems)
        _usage_error(f"nothing undone: {count} of {len(recorded.files)} file"
                     f"{'s' * (len(recorded.files) != 1)} of run {recorded.name} "
                     f"{'is' if count == 1 else 'are'} not as the run left "
                     f"{'it' if count == 1 else 'them'}")
    try:
        undo_run(recorded, plan)
    except UndoWriteError as exc:
        stderr.print(f"{shown_path(exc.path)}: error: {exc}", markup=False, style="red")
        state = ("the files restored before it were put back: nothing undone"
                 if exc.rolled_back else "some files could not be put back: check them")
        stderr.print(f"torchfix: error: undo of run {recorded.name} failed; {state}",
                     markup=False)
        raise typer.Exit(EXIT_FINDINGS) from None
    except RecordError as exc:
        stderr.print(f"torchfix: error: {exc}", markup=False)
        raise typer.Exit(EXIT_FINDINGS) from None
    if not quiet:
        for restore in plan.restores:
            stderr.print(f"restored {shown_path(restore.path)}", markup=False)
        for name in plan.not_written:
            stderr.print(f"{name}: note: never written (the run was interrupted); left alone",
                         markup=False)
        count = len(plan.restores)
        stderr.print(f"torchfix: undid run {recorded.name}: {count} file"
                     f"{'s' * (count != 1)} restored", markup=False)
    raise typer.Exit(EXIT_OK)


@app.command()
def diff(
    paths: PathsArg = None,
    select: SelectOpt = None,
    extend_select: ExtendSelectOpt = None,
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
                       no_cache, extend_select)
    outcome = _run(paths, options, quiet)
    _print_notices(outcome, quiet)
    for result in outcome.results:
        rewrite = result.rewrite()
        if rewrite is not None:
            sys.stdout.buffer.write(unified_diff(*rewrite, patch_path(result.path,
                                                                       outcome.root)))
    sys.stdout.buffer.flush()
    _finish(outcome, _problems(outcome), OutputFormat.full, quiet, "would change", False)


@app.command()
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
) -> None:
    """List the findings that fail the check; exit 1 if `apply` would change anything
    (the CI gate)."""
    chosen = canonical(output_format)
    if statistics and chosen not in TEXT_FORMATS | {OutputFormat.json, OutputFormat.json_lines}:
        _usage_error(f"--statistics prints a table or json, not {chosen.value}")
    options = replace(
        _options(select, ignore, exclude, unsafe_fixes, include_generated, config, jobs,
                 no_cache, extend_select),
        # Making the new text costs more than finding the changes: only for formats that
        # carry the fixes' edits.
        produce_output=chosen in FIX_FORMATS and not statistics,
    )
    outcome = _run(paths, options, quiet)
    _print_notices(outcome, quiet)
    problems = _problems(outcome)
    summary = Summary.of(outcome.results, problems, outcome.seconds)
    report = build_report("check", outcome.root, outcome.results, problems,
                          _warnings(outcome), summary)
    if statistics:
        _emit(render_statistics(report, chosen))
    else:
        _emit(render(report, chosen, show_all))
    if statistics or chosen not in SELF_CONTAINED:
        _print_problems(problems)
        _print_warnings(report.warnings, quiet)
    if chosen in TEXT_FORMATS and not quiet and (outcome.results or problems):
        print_summary(stderr, summary, "would change", command="check", table=not statistics)
        hidden = None if show_all or statistics else hidden_summary(report)
        if hidden is not None:
            stderr.print(hidden, markup=False)
    failed = bool(report.failing) and not exit_zero
    raise typer.Exit(EXIT_FINDINGS if failed or problems else EXIT_OK)


@app.command("list")
def list_codemods() -> None:
    """Show every codemod: name, TorchFix codes, summary, fix safety, default on/off."""
    table = Table(header_style="bold")
    table.add_column("name", no_wrap=True)
    table.add_column("codes", no_wrap=True)
    table.add_column("summary")
    table.add_column("fixes", no_wrap=True)
    table.add_column("default", no_wrap=True)
    for codemod in registry.all_codemods():
        table.add_row(
            codemod.name,
            ", ".join(registry.codes_of(codemod)),
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
    text = f"# {codemod.name}\n\n{inspect.getdoc(codemod) or codemod.summary}"
    if codemod.options:
        text += "\n\n## Options\n\n" + "\n".join(
            f"- `{option.name}` (default `{option.default!r}`): {option.help}"
            for option in codemod.options
        )
    # Wrapped to the terminal (or 80 columns), code blocks included: nothing is cut off.
    stdout.print(Markdown(text), soft_wrap=False)


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
        # TorchFix codes stand for the codemods that carry them.
        chosen = [c.name for c in registry.select(names)] if names is not None else None
    except registry.UnknownCodemodError as exc:
        _usage_error(str(exc))
    selected = None if names is None or registry.ALL_SELECTOR in names else chosen
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


# -- git: apply --patch-dir / --commit, batch --------------------------------------------


def _git_flags(*values: object) -> bool:
    return any(value not in (None, False) for value in values)


def _commit_options(
    branch: str | None,
    squash: bool,
    allow_dirty: bool,
    author: str | None,
    verify: str | None,
    verify_shell: bool,
    verify_timeout: float,
) -> CommitOptions:
    if verify_shell and verify is None:
        _usage_error("--verify-shell needs --verify CMD")
    spec = VerifySpec(verify, verify_shell, verify_timeout) if verify is not None else None
    try:
        if spec is not None:
            spec.argv()
        identity = parse_identity(author) if author is not None else None
    except (GitError, VerifyCommandError) as exc:
        _usage_error(str(exc))
    return CommitOptions(branch, squash, allow_dirty, identity, spec)


def _git_apply(
    paths: list[Path] | None,
    options: RunOptions,
    patch_dir: Path | None,
    commit: bool,
    dry_run: bool,
    commit_options: CommitOptions,
    output_format: OutputFormat,
    quiet: bool,
) -> NoReturn:
    if dry_run or (patch_dir is not None and commit):
        _usage_error("choose one of --dry-run, --patch-dir and --commit")
    if not commit and patch_dir is None:
        _usage_error("--squash and --author need --patch-dir or --commit")
    if not commit and (commit_options.branch or commit_options.allow_dirty
                       or commit_options.verify):
        _usage_error("--branch, --allow-dirty and --verify need --commit")
    lines: list[str] = []
    failed = committed = False
    say = (lambda _text: None) if quiet else (lambda text: stderr.print(text, markup=False))
    try:
        repository = open_for_paths(paths or [Path(".")])
        if patch_dir is not None:
            checked_patch = patch_preflight(repository, patch_dir, commit_options.author)
            outcome = _run(paths, options, quiet)
            patches = write_patch_series(checked_patch, outcome, squash=commit_options.squash)
            lines, split_problems = patch_report(patches), patches.problems
        else:
            checked = preflight(repository, commit_options)
            outcome = _run(paths, options, quiet)
            result = commit_rewrite(checked, outcome, commit_options, progress=say)
            lines = commit_report(result, commit_options.verify)
            split_problems = result.problems
            failed = result.status == "verify-failed"
            committed = result.status == "committed"
    except GitError as exc:
        _git_error(exc)
    _print_notices(outcome, quiet)
    if not quiet or failed:
        for line in lines:
            stderr.print(line, markup=False)
    problems = _problems(outcome) + [Problem(p.path, p.message, True) for p in split_problems]
    _finish(outcome, problems, output_format, quiet,
            "changed" if committed else "would change", failed)


def _git_error(exc: GitError) -> NoReturn:
    stderr.print(f"torchfix: error: {exc}", markup=False)
    raise typer.Exit(EXIT_USAGE if exc.usage else EXIT_FINDINGS)


@app.command()
def batch(
    targets: Annotated[
        list[str] | None,
        typer.Argument(metavar="TARGET", help="Repositories: local paths or clone URLs.",
                       show_default=False),
    ] = None,
    from_file: Annotated[
        Path | None,
        typer.Option("--from-file", metavar="FILE", help="Also read targets from FILE, one a "
                     "line (# comments; paths relative to FILE).", show_default=False),
    ] = None,
    workdir: Annotated[
        Path, typer.Option("--workdir", metavar="DIR",
                           help="Where clone URLs are cloned (and reused).")
    ] = DEFAULT_WORKDIR,
    branch: BranchOpt = None,
    squash: SquashOpt = False,
    allow_dirty: AllowDirtyOpt = False,
    author: AuthorOpt = None,
    verify: VerifyOpt = None,
    verify_shell: VerifyShellOpt = False,
    verify_timeout: VerifyTimeoutOpt = DEFAULT_TIMEOUT_SECONDS,
    push: Annotated[
        str | None,
        typer.Option("--push", metavar="REMOTE", help="Push each new branch to REMOTE "
                     "(a fast-forward, never forced).", show_default=False),
    ] = None,
    pr_dir: Annotated[
        Path | None,
        typer.Option("--pr-dir", metavar="DIR", help="Write each pull request's title and "
                     "body (Markdown) to DIR/<repository>.md.", show_default=False),
    ] = None,
    open_pr: Annotated[
        bool, typer.Option("--open-pr", help="Open each pull request with the gh CLI "
                                              "(needs --push).")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, metavar="N",
                          help="Repositories processed at once.")
    ] = DEFAULT_JOBS,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    unsafe_fixes: UnsafeOpt = None,
    config: ConfigOpt = None,
    exclude: ExcludeOpt = None,
    include_generated: GeneratedOpt = None,
    no_cache: NoCacheOpt = False,
    output_format: Annotated[
        BatchFormat, typer.Option("--format", help="text (a table) or json.")
    ] = BatchFormat.text,
    quiet: QuietOpt = False,
) -> None:
    """Migrate many repositories: branch, apply, verify, commit, push, describe a PR.

    Each repository uses the tool.torchfix settings in its own pyproject.toml (never one
    above its root); options given here win. Clone URLs are cloned into --workdir; local
    paths are migrated in place and end up on the new branch, as with `apply --commit`.
    """
    if open_pr and push is None:
        _usage_error("--open-pr needs --push REMOTE (the branch must be on a remote)")
    commit_options = _commit_options(branch, squash, allow_dirty, author, verify,
                                     verify_shell, verify_timeout)
    run_options = _options(select, ignore, exclude, unsafe_fixes, include_generated,
                           config.resolve() if config else None, None, no_cache)
    try:
        chosen = read_targets(targets or [], from_file)
        registry.select(run_options.select, run_options.ignore)
        if run_options.config is not None:
            resolve([Path(".")], run_options)
    except (BatchUsageError, ConfigError, registry.UnknownCodemodError) as exc:
        _usage_error(str(exc))
    if open_pr and shutil.which("gh") is None:
        stderr.print("torchfix: gh not found on PATH: pull requests will not be opened; "
                     "their bodies are left in the PR folder", markup=False)

    def done(outcome: RepoOutcome) -> None:
        if not quiet:
            where = f" on {outcome.branch}" if outcome.branch else ""
            first = f": {outcome.details[0]}" if outcome.details else ""
            stderr.print(f"{outcome.name}: {outcome.status}{where}{first}", markup=False)

    outcomes = run_batch(
        chosen,
        BatchOptions(run_options, commit_options, workdir, push, pr_dir, open_pr, jobs),
        on_done=done,
    )
    if output_format is BatchFormat.json:
        stdout.out(json.dumps({"repositories": [o.as_dict() for o in outcomes]}, indent=2),
                   highlight=False)
    else:
        # Piped output has no terminal width; do not squeeze the reasons into 80 columns.
        wide = stdout if stdout.is_terminal else Console(highlight=False, width=160)
        wide.print(batch_table(outcomes))
    raise typer.Exit(EXIT_OK if all(outcome.ok for outcome in outcomes) else EXIT_FINDINGS)


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
