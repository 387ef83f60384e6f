"""A run's rewrite split into steps, one per codemod, for patches and commits.

Reviewers want one change per codemod. The engine runs every selected codemod on a file
in one go, so a file that several codemods changed is run again here one codemod at a
time, each on the previous one's output, in the registry's order: that gives the state of
the file after each codemod, in memory, without touching the disk. A file that only one
codemod changed needs no second run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from torchfix.engine.process import process_source
from torchfix.engine.results import EngineSettings, FileResult
from torchfix.engine.runner import on_parser_stack
from torchfix.rewrite.changes import Change

if TYPE_CHECKING:
    from torchfix.model.project import Project


@dataclass(frozen=True)
class FileEdit:
    """One file rewritten by one step."""

    path: Path  # on disk
    name: str  # relative to the repository root, with forward slashes
    before: bytes
    after: bytes
    changes: tuple[Change, ...]  # the applied changes; lines are lines of `before`
    created_by: str | None = None  # a new file this codemod's changes need (before: b"")


@dataclass(frozen=True)
class Step:
    """What one commit (or patch) holds: the edits of one codemod, or of all (squashed)."""

    codemods: tuple[str, ...]
    edits: tuple[FileEdit, ...]

    @property
    def change_count(self) -> int:
        return sum(len(edit.changes) for edit in self.edits)

    def changes_of(self, codemod: str) -> list[tuple[FileEdit, Change]]:
        return [
            (edit, change)
            for edit in self.edits
            for change in edit.changes
            if change.codemod == codemod
        ]

    def files_of(self, codemod: str) -> int:
        return sum(any(c.codemod == codemod for c in edit.changes) for edit in self.edits)


@dataclass(frozen=True)
class SplitProblem:
    """A file whose changes cannot be split into one commit per codemod."""

    path: Path
    message: str


def applied(changes: Sequence[Change]) -> tuple[Change, ...]:
    return tuple(change for change in changes if change.applied)


def squashed(results: Sequence[FileResult], settings: EngineSettings,
             name_of: Callable[[Path], str]) -> list[Step]:
    """All the changed files as one step (the engine's combined result, as it is)."""
    edits = tuple(
        FileEdit(r.path, name_of(r.path), r.source, r.output, applied(r.changes), r.created_by)
        for r in results
        if r.source is not None and r.output is not None
    )
    if not edits:
        return []
    used = {change.codemod for edit in edits for change in edit.changes}
    return [Step(tuple(name for name in settings.codemods if name in used), edits)]


def by_codemod(
    results: Sequence[FileResult],
    settings: EngineSettings,
    name_of: Callable[[Path], str],
    project: Project | None = None,
) -> tuple[list[Step], list[SplitProblem]]:
    """One step per codemod that changed something, in the order the codemods run.

    A file whose per-codemod run does not end where the combined run ended is left out
    and reported: the commits must add up to exactly what `torchfix apply` writes. The
    per-codemod runs read the run's `project` (its root's torch floor, its other
    modules); without one, each file's folder stands for its project.
    """
    edits: dict[str, list[FileEdit]] = {name: [] for name in settings.codemods}
    problems: list[SplitProblem] = []
    for result in results:
        if result.source is None or result.output is None:
            continue
        name = name_of(result.path)
        if result.created_by is not None:  # in the step of the codemod that needs it
            if result.created_by in edits:
                edits[result.created_by].append(FileEdit(
                    result.path, name, result.source, result.output, (), result.created_by))
            continue
        changes = applied(result.changes)
        used = [codemod for codemod in settings.codemods
                if any(change.codemod == codemod for change in changes)]
        if len(used) == 1:
            edits[used[0]].append(FileEdit(result.path, name, result.source, result.output,
                                           changes))
            continue
        file_edits, problem = _one_codemod_at_a_time(result, name, used, settings, project)
        if problem is not None:
            problems.append(problem)
            continue
        for codemod, edit in file_edits:
            edits[codemod].append(edit)
    steps = [Step((codemod,), tuple(found)) for codemod, found in edits.items() if found]
    return steps, problems


def _one_codemod_at_a_time(
    result: FileResult, name: str, codemods: Sequence[str], settings: EngineSettings,
    project: Project | None = None,
) -> tuple[list[tuple[str, FileEdit]], SplitProblem | None]:
    assert result.source is not None and result.output is not None
    current = result.source
    found: list[tuple[str, FileEdit]] = []
    for codemod in codemods:
        alone = replace(settings, codemods=(codemod,), produce_output=True)
        step = on_parser_stack(process_source, current, result.path, alone, project)
        if step.error is not None:
            return [], SplitProblem(result.path, f"{codemod}: {step.error.message}")
        if step.output is None:
            continue
        found.append((codemod, FileEdit(result.path, name, current, step.output,
                                        applied(step.changes))))
        current = step.output
    if current != result.output:
        return [], SplitProblem(
            result.path,
            "internal error: running the codemods one at a time does not give the combined "
            "result; file left out of the commits",
        )
    return found, None
