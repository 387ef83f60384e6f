"""`torchfix apply` and `torchfix diff`: make the fixes, in place (with a run record),
as a diff, as patches (`--patch-dir`) or as commits (`--commit`)."""

from __future__ import annotations

import contextlib
import shlex
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from torchfix.cli.common import (
    EXIT_FINDINGS,
    EXIT_USAGE,
    finish,
    print_notices,
    problems_of,
    run_pipeline,
    say,
    stdout,
    usage_error,
)
from torchfix.cli.options import (
    AllowDirtyOpt,
    ApplyFormatOpt,
    AuthorOpt,
    BranchOpt,
    CommitOpt,
    ConfigOpt,
    ExcludeOpt,
    ExtendSelectOpt,
    GeneratedOpt,
    IgnoreOpt,
    JobsOpt,
    NoCacheOpt,
    NoRecordOpt,
    PatchDirOpt,
    PathsArg,
    QuietOpt,
    RecordDirOpt,
    SelectOpt,
    SquashOpt,
    StdinFilenameOpt,
    UnsafeOpt,
    VerboseOpt,
    VerifyOpt,
    VerifyShellOpt,
    VerifyTimeoutOpt,
    run_options,
)
from torchfix.engine.writing import WriteError, create_file, write_atomically
from torchfix.git.defaults import DEFAULT_VERIFY_TIMEOUT_SECONDS
from torchfix.output.formats import OutputFormat, canonical

if TYPE_CHECKING:
    from torchfix.engine.pipeline import RunOptions, RunOutcome
    from torchfix.engine.results import FileResult
    from torchfix.git.gitops import CommitOptions, GitError
    from torchfix.git.record import PlannedFile, RunRecorder
    from torchfix.output.report import Problem, RecordNote

def _apply_format(output_format: OutputFormat) -> OutputFormat:
    chosen = canonical(output_format)
    if chosen not in (OutputFormat.full, OutputFormat.json):
        usage_error(f"--output-format {chosen.value} is for `torchfix check`; this command "
                    "prints full (text) or json")
    return chosen


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
    verify_timeout: VerifyTimeoutOpt = DEFAULT_VERIFY_TIMEOUT_SECONDS,
    stdin_filename: StdinFilenameOpt = None,
) -> None:
    """Rewrite files in place (safe fixes; --unsafe-fixes for all) and record the run
    (its patch, for review and `torchfix undo`); or write patches (--patch-dir) or
    commits on a branch (--commit) instead."""
    if no_record and record_dir is not None:
        usage_error("choose one of --record-dir and --no-record")
    from torchfix.git.diffs import patch_path, unified_diff
    from torchfix.git.record import prune_runs
    from torchfix.output.report import finding_line, print_diff, shown_path

    output_format = _apply_format(output_format)
    options = replace(
        run_options(select, ignore, exclude, unsafe_fixes, include_generated, config, jobs,
                    no_cache, extend_select),
        fix_edits=output_format is OutputFormat.json)  # its findings carry their fixes
    if stdin_filename is not None:
        _apply_to_stdin(paths, stdin_filename, options, output_format, quiet)
    # The git modes record nothing: --patch-dir changes no file, and a commit is undone
    # with git itself.
    if patch_dir is not None or commit or _git_flags(branch, squash, allow_dirty, author,
                                                     verify, verify_shell):
        commit_options = _commit_options(branch, squash, allow_dirty, author, verify,
                                         verify_shell, verify_timeout)
        _git_apply(paths, options, patch_dir, commit, dry_run, commit_options, output_format,
                   quiet)
    outcome = run_pipeline(paths, options, quiet)
    print_notices(outcome, quiet)
    problems = problems_of(outcome)
    text_output = output_format is OutputFormat.full
    rewrites = [result for result in outcome.results if result.rewrite() is not None]
    if dry_run:
        if text_output:
            for result in rewrites:
                old, new = result.rewrite() or (b"", b"")
                diff = unified_diff(old, new, patch_path(result.path, outcome.root),
                                    created=result.created_by is not None)
                print_diff(stdout(), diff, result.encoding)
        finish(outcome, problems, output_format, quiet, "would change", failed=False)
    rewrites = _inside_root(rewrites, outcome.root, problems)
    planned: list[tuple[FileResult, PlannedFile | None]] = [(r, None) for r in rewrites]
    recorder = None
    if not no_record and rewrites:
        planned, recorder = _begin_record(outcome, paths or [Path(".")], rewrites, record_dir,
                                          problems)

    written: list[Path] = []

    def applied(result: FileResult) -> None:
        written.append(result.path)
        if result.created_by is not None and text_output and not quiet:
            say(f"created {shown_path(result.path)} (needed by {result.created_by})")
        if verbose and text_output:
            for change in sorted(result.changes, key=lambda c: (c.line, c.column)):
                if change.applied:
                    say(f"fixed {finding_line(result.path, change)}")

    note = _write_rewrites(planned, recorder, problems, applied, options.config, quiet,
                           outcome.root)
    if note is not None and recorder is not None:
        # Only after a run that recorded: the new run counts among those kept.
        keep = outcome.config.keep_runs
        note = note._replace(pruned=tuple(prune_runs(recorder.folder.parent, keep,
                                                     recorder.name)), keep_runs=keep)
    finish(outcome, problems, output_format, quiet, "changed", failed=False, record=note,
           written=written)


def _inside_root(rewrites: list[FileResult], root: Path,
                 problems: list[Problem]) -> list[FileResult]:
    """The rewrites whose real path (symlinks resolved) lies in the project root; the
    others are reported, not written, so a symlinked folder cannot lead a write away."""
    from torchfix.engine.containment import is_inside, real
    from torchfix.output.report import Problem

    inside = []
    for result in rewrites:
        if is_inside(result.path, root):
            inside.append(result)
        else:
            problems.append(Problem(result.path, f"its real path {real(result.path)} is "
                                                 f"outside the project root {root}; not written"))
    return inside


def _apply_to_stdin(paths: list[Path] | None, stdin_filename: Path, options: RunOptions,
                    output_format: OutputFormat, quiet: bool) -> NoReturn:
    """The fixed source on stdout (the source as it was when nothing changes); nothing is
    written to disk and nothing is recorded."""
    from torchfix.cli.common import print_problems
    from torchfix.cli.stdin import read_stdin, stdin_outcome

    if output_format is not OutputFormat.full:
        usage_error("--stdin-filename writes the fixed source on stdout: it prints no json")
    data = read_stdin(paths)
    outcome = stdin_outcome(data, stdin_filename, options)
    problems = problems_of(outcome)
    print_problems(problems)
    fixed = next((result.output for result in outcome.results if result.output is not None),
                 data)
    sys.stdout.buffer.write(fixed)
    sys.stdout.buffer.flush()
    raise typer.Exit(EXIT_FINDINGS if problems else 0)


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
    from torchfix.engine.config import ConfigError
    from torchfix.git.record import RecordError, RunRecorder, plan_file, record_dir_for
    from torchfix.output.report import Problem

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
    except (RecordError, ConfigError) as exc:
        usage_error(f"{exc}; nothing written (--no-record writes without a record)")
    return planned, recorder


def _write_rewrites(
    planned: list[tuple[FileResult, PlannedFile | None]],
    recorder: RunRecorder | None,
    problems: list[Problem],
    applied: Callable[[FileResult], None],
    config: Path | None,
    quiet: bool,
    root: Path,
) -> RecordNote | None:
    """Write each file (never outside `root`); the record gets exactly the files that
    were written."""
    from torchfix.git.record import RecordError
    from torchfix.output.report import Problem, shown_path

    try:
        for result, plan in planned:
            rewrite = result.rewrite()
            assert rewrite is not None
            missing = [new.path for new in result.creates if not new.path.is_file()]
            if missing:  # its new file could not be created (or recorded): it would break
                problems.append(Problem(result.path, f"not written: it needs "
                                        f"{shown_path(missing[0])}, which was not created"))
                continue
            try:
                if result.created_by is not None:  # a new file the other rewrites need
                    create_file(result.path, rewrite[1], within=root)
                else:
                    write_atomically(result.path, *rewrite, within=root)
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
                    say(_record_note(recorder, patch, config).line())
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
    from torchfix.engine.config import ConfigError
    from torchfix.git.record import RecordError
    from torchfix.output.report import RecordNote, shown_path

    command = f"torchfix undo {shlex.quote(shown_path(recorder.folder))}"
    with contextlib.suppress(ConfigError, RecordError, OSError):
        if _default_record_dir(config).resolve() == recorder.folder.parent.resolve():
            command = "torchfix undo"
    return RecordNote(recorder.name, shown_path(recorder.folder), shown_path(patch), command)


def _default_record_dir(config_file: Path | None) -> Path:
    """The record folder `undo` uses from the current folder without --record-dir."""
    from torchfix.engine.config import ConfigError, find_config, load_config
    from torchfix.engine.pipeline import project_root
    from torchfix.git.record import configured_record_dir

    if config_file is not None and not config_file.is_file():
        raise ConfigError(f"{config_file}: configuration file not found")
    cwd = Path.cwd()
    config = load_config(config_file or find_config(cwd))
    return configured_record_dir(config, project_root(config, [cwd]))


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
    from torchfix.git.diffs import patch_path, unified_diff

    options = run_options(select, ignore, exclude, unsafe_fixes, include_generated, config,
                          jobs, no_cache, extend_select)
    outcome = run_pipeline(paths, options, quiet)
    print_notices(outcome, quiet)
    for result in outcome.results:
        rewrite = result.rewrite()
        if rewrite is not None:
            sys.stdout.buffer.write(unified_diff(*rewrite, patch_path(result.path, outcome.root),
                                                 created=result.created_by is not None))
    sys.stdout.buffer.flush()
    finish(outcome, problems_of(outcome), OutputFormat.full, quiet, "would change", False)


# -- git: apply --patch-dir / --commit --------------------------------------------


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
    from torchfix.git.gitops import CommitOptions, GitError, parse_identity
    from torchfix.git.verify_command import VerifyCommandError, VerifySpec

    if verify_shell and verify is None:
        usage_error("--verify-shell needs --verify CMD")
    spec = VerifySpec(verify, verify_shell, verify_timeout) if verify is not None else None
    try:
        if spec is not None:
            spec.argv()
        identity = parse_identity(author) if author is not None else None
    except (GitError, VerifyCommandError) as exc:
        usage_error(str(exc))
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
        usage_error("choose one of --dry-run, --patch-dir and --commit")
    if not commit and patch_dir is None:
        usage_error("--squash and --author need --patch-dir or --commit")
    if not commit and (commit_options.branch or commit_options.allow_dirty
                       or commit_options.verify):
        usage_error("--branch, --allow-dirty and --verify need --commit")
    from torchfix.git.gitops import (
        GitError,
        commit_rewrite,
        open_for_paths,
        patch_preflight,
        preflight,
        write_patch_series,
    )
    from torchfix.git.gitreport import commit_report, patch_report
    from torchfix.output.report import Problem

    lines: list[str] = []
    failed = committed = False
    progress = (lambda _text: None) if quiet else say
    try:
        repository = open_for_paths(paths or [Path(".")])
        if patch_dir is not None:
            checked_patch = patch_preflight(repository, patch_dir, commit_options.author)
            outcome = run_pipeline(paths, options, quiet)
            patches = write_patch_series(checked_patch, outcome, squash=commit_options.squash)
            lines, split_problems = patch_report(patches), patches.problems
        else:
            checked = preflight(repository, commit_options)
            outcome = run_pipeline(paths, options, quiet)
            result = commit_rewrite(checked, outcome, commit_options, progress=progress)
            lines = commit_report(result, commit_options.verify)
            split_problems = result.problems
            failed = result.status == "verify-failed"
            committed = result.status == "committed"
    except GitError as exc:
        _git_error(exc)
    print_notices(outcome, quiet)
    if not quiet or failed:
        for line in lines:
            say(line)
    problems = problems_of(outcome) + [Problem(p.path, p.message, True) for p in split_problems]
    finish(outcome, problems, output_format, quiet,
           "changed" if committed else "would change", failed)


def _git_error(exc: GitError) -> NoReturn:
    say(f"torchfix: error: {exc}")
    raise typer.Exit(EXIT_USAGE if exc.usage else EXIT_FINDINGS)


