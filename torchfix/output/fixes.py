"""The edits of a fix, computed from a file's old and new text.

The engine gives a changed file's bytes before and after; the edits are the differing
stretches of text, found line by line (`torchfix.engine.line_alignment`: linear, where
difflib was quadratic on repeated lines) and then trimmed to the characters
that differ, with positions in the old text (1-based lines and character columns, the
end just past the last replaced character). Each edit belongs to the change(s) whose
lines it touches; an edit that touches no change (an import or helper a fix needs)
belongs to every applied change of the codemod that made it (every applied change of
the file when that is not known), since none of them works without it; an edit on the
line just before or after a change (the rest of its edit, split off where the diff kept
an old line) belongs to that change. Where the diff cannot tell two changes' edits apart
(`doubtful`), the engine makes each such change alone and its edits come from that text.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from torchfix.engine import line_alignment
from torchfix.rewrite.changes import Change


@dataclass(frozen=True)
class Edit:
    """Replace the old text from (line, column) up to (end_line, end_column) by `content`."""

    content: str
    line: int
    column: int
    end_line: int
    end_column: int


def file_edits(old: bytes, new: bytes, encoding: str) -> list[Edit]:
    old_text, new_text = _decode(old, encoding), _decode(new, encoding)
    old_lines, new_lines = _lines(old_text), _lines(new_text)
    old_starts = _starts(old_lines)
    edits: list[Edit] = []
    # neural-compressor's 97,000-line quarot_utils.py (rows of Hadamard matrices) took
    # minutes under difflib's SequenceMatcher; the engine's alignment is linear.
    for tag, i1, i2, j1, j2 in line_alignment.opcodes(old_lines, new_lines):
        if tag == "equal":
            continue
        before = "".join(old_lines[i1:i2])
        after = "".join(new_lines[j1:j2])
        prefix = _common_prefix(before, after)
        suffix = _common_prefix(before[prefix:][::-1], after[prefix:][::-1])
        start = old_starts[i1] + prefix
        end = old_starts[i1] + len(before) - suffix
        line, column = _position(old_text, old_starts, start)
        end_line, end_column = _position(old_text, old_starts, end)
        edits.append(Edit(after[prefix:len(after) - suffix], line, column, end_line, end_column))
    return edits


def attach(changes: Sequence[Change], edits: Sequence[Edit],
           edited_lines: Sequence[tuple[str, int, int]] = (),
           alone: Mapping[tuple[str, int, int], Sequence[Edit]] | None = None,
           ) -> list[tuple[Edit, ...]]:
    """The edits of each change (in the order of `changes`); none for changes not applied.

    `edited_lines` (the engine's `FileResult.edited_lines`: which lines each codemod's
    edit touched) keeps one codemod's edits from another codemod's changes. `alone`: the
    edits of changes made alone (keyed by codemod, line, column), which replace what the
    whole file's diff gives them (see `doubtful`).
    """
    owned: list[list[Edit]] = [[] for _ in changes]
    for edit in edits:
        owners, _ = _owners(changes, edit, edited_lines)
        for index in owners:
            owned[index].append(edit)
    if alone:
        for index, change in enumerate(changes):
            key = (change.codemod, change.line, change.column)
            if change.applied and key in alone:
                owned[index] = list(alone[key])
    return [tuple(edits_of) for edits_of in owned]


def doubtful(changes: Sequence[Change], edits: Sequence[Edit],
             edited_lines: Sequence[tuple[str, int, int]] = (), old_text: str | None = None,
             ) -> list[Change]:
    """The applied changes whose edits the whole file's diff cannot tell apart.

    The diff aligns lines, not changes: a line a fix keeps (the last line of a
    multi-line assert) can split one change's edit in two, its tail left touching no
    change (it then went to every change of the file), or glue one change's tail to
    the next change's edit. Such changes are made alone to find their own edits: those
    sharing an edit that touches their lines, and those given an edit only for being
    next to it. Given `old_text` (the file as read), also each change whose edits,
    applied alone, do not give valid Python, with the changes either side of it (one of
    them holds the rest of its edit).
    """
    doubted: set[int] = set()
    owned: list[list[Edit]] = [[] for _ in changes]
    for edit in edits:
        owners, place = _owners(changes, edit, edited_lines)
        for index in owners:
            owned[index].append(edit)
        if place == _NEXT_TO or (place == _TOUCHING and len(owners) > 1):
            doubted.update(owners)
    applied = sorted((index for index, change in enumerate(changes) if change.applied),
                     key=lambda index: (changes[index].line, changes[index].column))
    if old_text is not None and len(applied) > 1:
        for place, index in enumerate(applied):
            if index in doubted or _parses(apply_edits(old_text, owned[index])):
                continue
            doubted.update(applied[max(place - 1, 0):place + 2])
    return [changes[index] for index in sorted(doubted)]


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """`text` with `edits` (positions in `text`, none overlapping) made."""
    lines = _lines(text)
    starts = _starts(lines)

    def offset(line: int, column: int) -> int:
        return starts[min(line, len(lines) + 1) - 1] + column - 1

    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        start, end = offset(edit.line, edit.column), offset(edit.end_line, edit.end_column)
        text = text[:start] + edit.content + text[end:]
    return text


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def _last_line(edit: Edit) -> int:
    # An edit that ends at the start of a line leaves that line alone.
    last = edit.end_line - 1 if edit.end_column == 1 and edit.end_line > edit.line \
        else edit.end_line
    return max(last, edit.line)


def _owners(changes: Sequence[Change], edit: Edit,
            edited_lines: Sequence[tuple[str, int, int]]) -> tuple[list[int], bool]:
    """The changes an edit belongs to, and whether it touches their lines (False: it
    touches no change's lines, and belongs to every candidate)."""
    applied = [index for index, change in enumerate(changes) if change.applied]
    last = _last_line(edit)
    codemods = {name for name, first, end in edited_lines
                if first <= last and edit.line <= end}
    if not codemods and edited_lines:
        # Blank lines around an inserted block (a helper after the imports) can put
        # the whole file's diff and one codemod's diff a line or two apart: the
        # nearest codemod's edit is the one, not every change of the file.
        distance: dict[str, int] = {}
        for name, first, end in edited_lines:
            away = max(first - last, edit.line - end, 0)
            distance[name] = min(away, distance.get(name, away))
        nearest = min(distance.values())
        if nearest <= _NEAR_LINES:
            codemods = {name for name, away in distance.items() if away == nearest}
    candidates = [index for index in applied if changes[index].codemod in codemods] or \
        applied
    owners = [
        index for index in candidates
        if changes[index].line <= last and edit.line <= _end_line(changes[index])
    ]
    if owners:
        return owners, _TOUCHING
    # An edit on the line just after a change (or just before it) is the rest of that
    # change's edit, which the diff split where it kept a line of the old text.
    owners = [
        index for index in candidates
        if changes[index].line - 1 <= last and edit.line <= _end_line(changes[index]) + 1
    ]
    if owners:
        return owners, _NEXT_TO
    return candidates, _ELSEWHERE


# How an edit is placed by the changes it is attached to.
_TOUCHING = "touching"  # on their lines
_NEXT_TO = "next to"  # on the line before or after them
_ELSEWHERE = "elsewhere"  # away from every change (an import, a helper)


# How far apart (in lines) one edit's place in the whole file's diff and in its codemod's
# own diff can be: the blank lines either side of an inserted block.
_NEAR_LINES = 2


def _end_line(change: Change) -> int:
    return change.end_line if change.end_line is not None else change.line


def _decode(data: bytes, encoding: str) -> str:
    # A BOM is not part of the text the columns of a change count (libcst drops it too).
    if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
        encoding = "utf-8-sig"
    return data.decode(encoding, errors="replace")


def _lines(text: str) -> list[str]:
    """Lines ended by "\\n" only (a CR stays part of its line), keeping the ends."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _starts(lines: Sequence[str]) -> list[int]:
    """The offset of each line's first character, and the text's length after them."""
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    return starts


def _position(text: str, starts: Sequence[int], offset: int) -> tuple[int, int]:
    """(line, column), both 1-based, of a character offset into `text`."""
    if offset >= len(text) and text and not text.endswith("\n"):
        # Past the end of a last line that has no newline: still on that line.
        last = len(starts) - 2
        return last + 1, offset - starts[last] + 1
    index = bisect.bisect_right(starts, offset) - 1
    return index + 1, offset - starts[index] + 1


def _common_prefix(a: str, b: str) -> int:
    limit = min(len(a), len(b))
    index = 0
    while index < limit and a[index] == b[index]:
        index += 1
    return index
