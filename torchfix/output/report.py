"""What users read on a terminal: findings, errors, diffs, summaries, the progress bar.

rich is imported only where a table, colours or a progress bar are drawn: a run that has
nothing to show but its one-line summary does not load it.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, NamedTuple

from torchfix.engine.results import FileResult

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress
    from rich.text import Text

    from torchfix.rewrite.changes import Change

# Runs shorter than this finish before a progress bar would be any help.
PROGRESS_DELAY_SECONDS = float(os.environ.get("TORCHFIX_PROGRESS_DELAY", "0.5"))



def counted(n: int, noun: str) -> str:
    """'1 patch', '2 patches', '3 files'."""
    if n == 1:
        return f"{n} {noun}"
    return f"{n} {noun}{'es' if noun.endswith(('s', 'sh', 'ch', 'x')) else 's'}"

def shown_path(path: Path) -> str:
    """A path as users typed it: relative to the current folder when inside it."""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, Path.cwd())
    return absolute if relative.startswith("..") else relative


class Problem(NamedTuple):
    """A file that could not be processed or written."""

    path: Path
    message: str
    internal: bool = False

    def line(self) -> str:
        return f"{shown_path(self.path)}: error: {self.message}"


def finding_line(path: Path, change: Change) -> str:
    """`path:line:col name message`, with a note when the fix is not applied by default."""
    from torchfix.rewrite.changes import Safety

    note = ""
    if not change.applied and change.safety is Safety.UNSAFE:
        note = " [unsafe fix: --unsafe-fixes applies it]"
    elif change.safety is Safety.MANUAL:
        note = " [no automatic fix]"
    return (
        f"{shown_path(path)}:{change.line}:{change.column} {change.codemod} "
        f"{change.message}{note}"
    )


class RecordNote(NamedTuple):
    """Where `apply` recorded its run, as the closing summary names it."""

    run: str
    folder: str  # as shown to the user: relative to the cwd when inside it
    patch: str
    undo: str  # the command that takes the run back
    pruned: tuple[str, ...] = ()  # older runs deleted to keep `keep_runs`
    keep_runs: int = 0

    def line(self) -> str:
        line = f"recorded {self.patch} (undo: {self.undo})"
        if self.pruned:
            line += (f"; deleted {counted(len(self.pruned), 'older run')} "
                     f"(keep-runs = {self.keep_runs})")
        return line

    def as_dict(self) -> dict[str, Any]:
        return {"run": self.run, "folder": self.folder, "patch": self.patch, "undo": self.undo,
                "pruned": list(self.pruned)}


@dataclass(eq=False)  # one run's counts, the same only as itself
class Summary:
    """The counts of the closing summary."""

    files: int = 0
    parsed: int = 0
    changed: int = 0
    generated_skipped: int = 0
    unimportable_skipped: int = 0  # modules that cannot be imported (warned of, each)
    applied: Counter[str] = field(default_factory=Counter)
    pending_unsafe: Counter[str] = field(default_factory=Counter)
    manual: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    seconds: float = 0.0
    record: RecordNote | None = None  # apply: the run record, if one was written

    @classmethod
    def of(
        cls, results: Sequence[FileResult], problems: Sequence[Problem], seconds: float,
        written: Collection[Path] | None = None,
    ) -> Summary:
        """`written`: for a run that writes, the files it wrote; only those count as
        changed, with their changes (a file whose write failed is an error instead)."""
        # Files a fix needs created are not files the run looked at (apply names them).
        results = [result for result in results if result.created_by is None]
        summary = cls(files=len(results), errors=len(problems), seconds=seconds)
        for result in results:
            counted_as_changed = (result.would_change if written is None
                                  else result.path in written)
            summary.parsed += result.parsed
            summary.changed += counted_as_changed
            summary.generated_skipped += result.skipped == "generated"
            summary.unimportable_skipped += (result.skipped or "").startswith("unimportable")
            if not result.changes:
                continue
            # Loaded by whatever made the changes; a run without any never needs it.
            from torchfix.rewrite.changes import Safety

            for change in result.changes:
                if change.applied:
                    if counted_as_changed:
                        summary.applied[change.codemod] += 1
                elif change.safety is Safety.UNSAFE:
                    summary.pending_unsafe[change.codemod] += 1
                elif change.safety is Safety.MANUAL:
                    summary.manual[change.codemod] += 1
        return summary

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "parsed": self.parsed,
            "files_changed": self.changed,
            "generated_skipped": self.generated_skipped,
            "unimportable_skipped": self.unimportable_skipped,
            "changes": dict(sorted(self.applied.items())),
            "unsafe_not_applied": dict(sorted(self.pending_unsafe.items())),
            "manual": dict(sorted(self.manual.items())),
            "errors": self.errors,
            "seconds": round(self.seconds, 3),
            "record": self.record.as_dict() if self.record else None,
        }


def print_summary(console: Callable[[], Console], summary: Summary, verb: str, *,
                  command: str = "apply", table: bool = True) -> None:
    """A closing summary on stderr: what was looked at, what changed, what went wrong.

    `check` says itself how to see what it did not list; only `apply` points at it.
    """
    head = (f"torchfix: {counted(summary.files, 'file')} scanned, {summary.changed} {verb}"
            + (f", {counted(summary.errors, 'error')}" if summary.errors else "")
            + f" in {summary.seconds:.2f}s")
    counts = sorted(set(summary.applied) | set(summary.pending_unsafe) | set(summary.manual))
    rows = [(name, str(summary.applied[name]), str(summary.pending_unsafe[name]),
             str(summary.manual[name])) for name in counts] if table else []
    notes = []
    if summary.pending_unsafe and command == "apply":
        notes.append("Unsafe fixes were not applied; review them with "
                     "`torchfix check --show-all`, apply them with --unsafe-fixes.")
    if summary.generated_skipped:
        notes.append(f"{summary.generated_skipped} generated file(s) skipped: marked "
                     "@generated, DO NOT EDIT or AUTOGENERATED, or sphinx-gallery's copies "
                     "(--include-generated processes them).")
    if summary.record is not None:
        notes.append(summary.record.line())
    if not sys.stderr.isatty() or (not rows and not notes and not summary.errors):
        # Pre-commit, CI and editors read it through a pipe: the same text without rich's
        # styles, whose import would be a fifth of a one-file check.
        lines = [head, *_plain_table(rows), *notes]
        sys.stderr.write("\n".join(lines) + "\n")
        sys.stderr.flush()
        return
    from rich.table import Table
    from rich.text import Text

    out = console()
    styled = Text(head)
    if summary.errors:
        styled.stylize("bold red", head.index(", ") + 2, head.rindex(" in "))
    out.print(styled)
    if rows:
        counts_table = Table(box=None, show_header=True, pad_edge=False, header_style="bold")
        for column, title in enumerate(SUMMARY_COLUMNS):
            counts_table.add_column(title, justify="left" if column == 0 else "right")
        for row in rows:
            counts_table.add_row(*row)
        out.print(counts_table)
    for note in notes:
        out.print(Text(note))


SUMMARY_COLUMNS = ("codemod", "changes", "unsafe, not applied", "for a human")


def _plain_table(rows: Sequence[tuple[str, str, str, str]]) -> list[str]:
    """`rows` under SUMMARY_COLUMNS as rich lays them out without a box: names to the left,
    numbers to the right, two spaces apart."""
    if not rows:
        return []
    table = [SUMMARY_COLUMNS, *rows]
    widths = [max(len(row[column]) for row in table) for column in range(4)]
    return ["  ".join([row[0].ljust(widths[0]),
                       *(cell.rjust(width) for cell, width in zip(row[1:], widths[1:],
                                                                   strict=True))]).rstrip()
            for row in table]


def print_diff(console: Console, diff: bytes, encoding: str) -> None:
    """The diff of `apply --dry-run`: coloured on a terminal, the bytes themselves else."""
    buffer = None if console.is_terminal else getattr(console.file, "buffer", None)
    if buffer is not None:
        # Piped or saved to a file: the diff's own bytes, carriage returns and encoding
        # included, so a saved preview applies with `patch` as `torchfix diff`'s does.
        console.file.flush()
        buffer.write(diff)
        buffer.flush()
        return
    from rich.text import Text

    for line in diff.decode(_display_encoding(encoding), errors="replace").splitlines():
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("@@"):
            style = "cyan"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        else:
            style = None
        console.print(Text(line, style=style or ""), soft_wrap=True, highlight=False)


def _display_encoding(encoding: str) -> str:
    return "utf-8" if encoding.lower().replace("_", "-") == "utf-8-sig" else encoding


class ProgressBar:
    """A progress bar on stderr that appears only once a run has taken a while.

    It stays away when stderr is not a terminal, so piped output is never disturbed.
    """

    def __init__(self, console: Callable[[], Console], enabled: bool) -> None:
        # Asked of the stream itself: rich is loaded only once a bar is drawn.
        self._enabled = enabled and sys.stderr.isatty()
        self._console = console
        self._progress: Progress | None = None
        self._task: Any = None
        self._total = 0
        self._done = 0
        self._started = time.monotonic()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()

    def set_total(self, total: int) -> None:
        self._total = total

    def advance(self) -> None:
        self._done += 1
        if not self._enabled:
            return
        if self._progress is None:
            if time.monotonic() - self._started < PROGRESS_DELAY_SECONDS:
                return
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(
                TextColumn("torchfix"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=self._console(),
                transient=True,
            )
            self._task = self._progress.add_task("files", total=self._total)
            self._progress.start()
        self._progress.update(self._task, completed=self._done)


def print_selftest(console: Console, checks: Sequence[Any], environment: str) -> None:
    """Per codemod: how many golden cases and smoke scenarios passed, failed, skipped."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"torchfix selftest ({environment})", header_style="bold")
    table.add_column("codemod", no_wrap=True)
    for column in ("golden\npassed", "golden\nfailed", "smoke\npassed", "smoke\nfailed",
                   "smoke\nskipped"):
        table.add_column(column, justify="right")
    codemods = sorted({check.codemod for check in checks})
    for codemod in codemods:
        count = Counter(
            (check.kind, check.status) for check in checks if check.codemod == codemod
        )
        table.add_row(
            codemod,
            str(count["golden", "passed"]),
            _red_if(count["golden", "failed"]),
            str(count["smoke", "passed"]),
            _red_if(count["smoke", "failed"]),
            str(count["smoke", "skipped"]),
        )
    console.print(table)
    for check in checks:
        if check.status != "passed":
            style = "red" if check.status == "failed" else "yellow"
            first, *rest = (check.detail or check.status).splitlines() or [""]
            console.print(Text(f"{check.status.upper()} {check.kind} "
                               f"{check.codemod}/{check.name}: {first}", style=style))
            if check.status == "failed" and rest:
                console.print(Text("\n".join(rest[:40])), highlight=False)
    failed = sum(check.status == "failed" for check in checks)
    passed = sum(check.status == "passed" for check in checks)
    skipped = sum(check.status == "skipped" for check in checks)
    console.print(Text(f"{passed} passed, {failed} failed, {skipped} skipped",
                       style="bold red" if failed else "bold green"))


def _red_if(count: int) -> Text:
    from rich.text import Text

    return Text(str(count), style="bold red" if count else "")
