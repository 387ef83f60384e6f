"""The command line's shared options: their names, help and types.

Only typer and the standard library are imported here: every command registers with
these at startup, and a command imports what it runs only when it runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from torchfix.output.formats import OutputFormat

if TYPE_CHECKING:
    from torchfix.engine.pipeline import RunOptions


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
StdinFilenameOpt = Annotated[
    Path | None,
    typer.Option("--stdin-filename", metavar="PATH", help="Read the source from stdin, as "
                 "the file at PATH (its configuration, excludes and per-file ignores "
                 "apply); give - (or nothing) as the path.", show_default=False),
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


def names(values: Sequence[str] | None) -> list[str] | None:
    if values is None:
        return None
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def run_options(
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
    from torchfix.engine.pipeline import RunOptions

    return RunOptions(
        select=names(select),
        extend_select=names(extend_select) or [],
        ignore=names(ignore) or [],
        exclude=exclude or [],
        unsafe_fixes=unsafe_fixes,
        include_generated=include_generated,
        config=config,
        jobs=jobs,
        use_cache=not no_cache,
    )


