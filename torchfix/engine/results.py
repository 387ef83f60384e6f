"""What the engine returns for a file, and what decides it: plain data.

Sinks (writing, diffs, reports, git, the cache) read these; nothing here does work.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # a run whose files hold no candidates never loads it
    from torchfix.rewrite.changes import Change


@dataclass(frozen=True)
class EngineSettings:
    """Everything that decides what the engine does to a file (and so keys its cache)."""

    codemods: tuple[str, ...]
    unsafe_fixes: bool = False
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    skip_generated: bool = True
    # False for `check`: only the changes are wanted, not the new text. Each codemod then
    # runs on the file as read, and the output is neither generated nor verified.
    produce_output: bool = True
    # Make each change that the whole file's diff cannot tell apart alone as well, for its
    # own fix edits (`FileResult.alone`): only where an output format carries them; it
    # costs a libcst edit per such change (timm's apply: +35% CPU).
    fix_edits: bool = False
    # Make only these of the applicable changes, named by (codemod, line, column) in the
    # file as read: one quick fix in an editor. None: every applicable change.
    only: frozenset[tuple[str, int, int]] | None = None
    # Larger files are refused before they are read (None: no limit). Not part of the
    # cache key: it decides whether a file is processed, never what its result is.
    max_file_bytes: int | None = None


class FileError(NamedTuple):
    """Why a file could not be processed. `internal` errors are torchfix bugs."""

    message: str
    internal: bool = False
    codemod: str | None = None


class NewFile(NamedTuple):
    """A file that applying a file's fixes needs created (a codemod's `CreateFile`)."""

    path: Path  # absolute
    data: bytes
    codemod: str


@dataclass(frozen=True)
class FileResult:
    """What the engine made of one file: its changes, new text, error or why it was skipped."""

    path: Path
    changes: tuple[Change, ...] = ()
    source: bytes | None = None  # the bytes read; kept only when the file changes
    output: bytes | None = None  # the new bytes when the file changes
    encoding: str = "utf-8"
    error: FileError | None = None
    parsed: bool = False
    skipped: str | None = None  # why the file was passed over, e.g. "generated"
    # The project facts the decisions read (`Project.facts_read`): key → digest. A cached
    # result stands only while each of them is unchanged.
    facts: tuple[tuple[str, str], ...] = ()
    # The files the fixes of this file need created (verified; `pipeline.run` creates
    # each once, as a result of its own).
    creates: tuple[NewFile, ...] = ()
    # This result is a file the run creates (source b"", the new bytes in `output`),
    # asked for by this codemod; None for the files the run read.
    created_by: str | None = None
    # When the file changes: (codemod, first line, last line) for each stretch of lines
    # of the file as read that a codemod's edit touched (an insertion touches the line it
    # goes before), so that each change's edits can be told apart from another codemod's.
    edited_lines: tuple[tuple[str, int, int], ...] = ()
    # When the file changes: for each applied change whose own edits the whole file's diff
    # cannot tell apart from another's (`torchfix.output.fixes.doubtful`), its key
    # (codemod, line, column) and the file's bytes with that change alone made.
    alone: tuple[tuple[tuple[str, int, int], bytes], ...] = ()

    @property
    def changed(self) -> bool:
        return self.output is not None

    def rewrite(self) -> tuple[bytes, bytes] | None:
        """(old bytes, new bytes) when the file changes, else None."""
        if self.source is None or self.output is None:
            return None
        return self.source, self.output

    @property
    def would_change(self) -> bool:
        """Whether applying the fixes changes the file (also when no output was made)."""
        return self.changed or any(change.applied for change in self.changes)
