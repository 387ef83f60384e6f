"""What every output format renders: the findings, errors and warnings of one run.

Plain data built once from the engine's results; the renderers turn it into text and
never look at the engine, the file system or the options.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from torchfix.engine.results import FileResult
from torchfix.output.report import Problem, Summary, counted, shown_path
from torchfix.rewrite import registry

if TYPE_CHECKING:
    from torchfix.output.fixes import Edit
    from torchfix.rewrite.changes import Change


class Finding(NamedTuple):
    """One change or finding of one codemod, with its place and its fix's edits."""

    path: Path
    change: Change
    # The fix's edits, given where this run produced the new text (`apply`, and `check`
    # in the formats that carry fixes) and the fix applies; empty otherwise.
    edits: tuple[Edit, ...] = ()
    written: bool = False  # apply wrote the file holding this change

    @property
    def fails(self) -> bool:
        """Whether `check` fails on it: `apply` with the same options makes this change."""
        return self.change.applied

    @property
    def end_line(self) -> int:
        return self.change.end_line or self.change.line

    @property
    def end_column(self) -> int:
        return self.change.end_column or self.change.column

    @property
    def url(self) -> str:
        return registry.docs_url(self.change.codemod)

    @property
    def note(self) -> str:
        """Why a finding does not fail the check, for the text formats; "" if it does."""
        if self.fails:
            return ""
        from torchfix.rewrite.changes import Safety

        if self.change.safety is Safety.UNSAFE:
            return "[unsafe fix: --unsafe-fixes applies it]"
        return "[no automatic fix]"


class ToolWarning(NamedTuple):
    """Something about the input worth a word that is not a finding (e.g. a typo in a
    suppression comment); it never fails a run."""

    path: Path
    line: int
    column: int
    message: str


@dataclass(eq=False)  # one run's report, the same only as itself
class Report:
    """Everything one run shows: findings, errors, warnings and the summary."""

    command: str  # "check" or "apply"
    root: Path  # the project root: CI formats name files relative to it
    findings: list[Finding] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)
    warnings: list[ToolWarning] = field(default_factory=list)
    summary: Summary = field(default_factory=Summary)

    @staticmethod
    def shown(path: Path) -> str:
        """A path as the user typed it: relative to the current folder when inside it."""
        return shown_path(path)

    def relative(self, path: Path) -> str:
        """A path relative to the project root with forward slashes, as CI systems and
        code scanning resolve files (from the repository's checkout)."""
        from torchfix.git.diffs import patch_path

        return patch_path(Path(os.path.abspath(path)), self.root)

    @property
    def failing(self) -> list[Finding]:
        return [finding for finding in self.findings if finding.fails]

    @property
    def passing(self) -> list[Finding]:
        """Findings that do not fail the check: unsafe fixes not enabled, none for a human."""
        return [finding for finding in self.findings if not finding.fails]


def build_report(
    command: str,
    root: Path,
    results: Sequence[FileResult],
    errors: Sequence[Problem],
    warnings: Sequence[ToolWarning],
    summary: Summary,
    written: Collection[Path] = (),
) -> Report:
    """The findings in a stable order (by file, then position), each with its edits."""
    report = Report(command, root, errors=list(errors), warnings=list(warnings),
                    summary=summary)
    for result in results:
        changes = sorted(result.changes, key=lambda c: (c.line, c.column, c.codemod))
        rewrite = result.rewrite()
        owned: Sequence[tuple[Edit, ...]] = [()] * len(changes)
        if rewrite is not None:
            from torchfix.output.fixes import attach, file_edits

            alone = {key: file_edits(rewrite[0], data, result.encoding)
                     for key, data in result.alone}
            owned = attach(changes, file_edits(*rewrite, result.encoding),
                           result.edited_lines, alone)
        was_written = result.path in written
        for change, edits in zip(changes, owned, strict=True):
            report.findings.append(
                Finding(result.path, change, edits, was_written and change.applied)
            )
    return report


class Statistic(NamedTuple):
    """How many findings of one codemod and safety a run has (`--statistics`)."""

    codemod: str
    safety: str
    fails: bool
    count: int


def statistics(report: Report) -> list[Statistic]:
    """Findings counted per codemod and safety, most frequent first."""
    counts = Counter(
        (finding.change.codemod, finding.change.safety.value, finding.fails)
        for finding in report.findings
    )
    return [
        Statistic(codemod, safety, fails, count)
        for (codemod, safety, fails), count in sorted(
            counts.items(), key=lambda item: (-item[1], item[0])
        )
    ]


def hidden_summary(report: Report) -> str | None:
    """One line on the findings the text formats leave out by default; None if none."""
    passing = report.passing
    if not passing:
        return None
    from torchfix.rewrite.changes import Safety

    unsafe = sum(f.change.safety is Safety.UNSAFE for f in passing)
    manual = len(passing) - unsafe
    parts = []
    if unsafe:
        parts.append(f"{counted(unsafe, 'unsafe fix')} (--unsafe-fixes applies "
                     f"{'it' if unsafe == 1 else 'them'})")
    if manual:
        parts.append(f"{manual} with no automatic fix")
    one = len(passing) == 1
    return (f"{counted(len(passing), 'more finding')} {'does' if one else 'do'} not fail "
            f"the check: {', '.join(parts)}; --show-all lists {'it' if one else 'them'}, "
            "--statistics counts findings per codemod.")
