"""Unified diffs that `git apply` and `patch -p1` accept, computed on bytes so encodings,
BOMs and CRLF line endings come through exactly as they are in the file.

This is the one diff implementation for the working tree: `torchfix diff`, the coloured
diff of `apply --dry-run` and the patch of a run record all come from `unified_diff`,
with paths relative to the one base a run picks (`pipeline.project_root`). The parser
below reads those patches back (for `torchfix undo`); it is exact, not fuzzy: a hunk
applies where it says or not at all.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

NO_NEWLINE = b"\\ No newline at end of file\n"
DEV_NULL = "/dev/null"  # the old side of a file the patch creates


def unified_diff(old: bytes, new: bytes, display_path: str, context: int = 3, *,
                 created: bool = False) -> bytes:
    """A unified diff between two versions of one file, with a/ and b/ prefixes.

    `created`: the file is new (`old` is empty): its old side is /dev/null, which is how
    `git apply` and `patch` know to create it (and, reversed, to remove it).
    """
    old_lines, new_lines = split_lines(old), split_lines(new)
    header_path = display_path.encode("utf-8", "surrogateescape")
    out: list[bytes] = []
    import difflib  # here: only runs that print or record a diff need it

    for index, line in enumerate(difflib.diff_bytes(
        difflib.unified_diff,
        old_lines,
        new_lines,
        fromfile=DEV_NULL.encode() if created else b"a/" + header_path,
        tofile=b"b/" + header_path,
        n=context,
        lineterm=b"",
    )):
        # The two file headers come first; after them only hunk headers start with "@@",
        # since every content line starts with " ", "+" or "-".
        if index < 2 or line.startswith(b"@@"):
            out.append(line + b"\n")
        elif line.endswith(b"\n"):
            out.append(line)
        else:  # the last line of a file that does not end with a newline
            out.append(line + b"\n" + NO_NEWLINE)
    return b"".join(out)


def split_lines(data: bytes) -> list[bytes]:
    """Lines split on b"\\n" only (a CR stays part of its line, as git sees it)."""
    lines = data.split(b"\n")
    result = [line + b"\n" for line in lines[:-1]]
    if lines[-1]:
        result.append(lines[-1])
    return result


def patch_path(path: Path, root: Path) -> str:
    """`path` as a patch names it: relative to `root`, with forward slashes.

    The folder part is resolved (as discovery resolves it) and the file name is kept, so
    a symlinked file is named by its link, which is what was rewritten.
    """
    absolute = Path(os.path.abspath(path))
    real = Path(os.path.realpath(absolute.parent)) / absolute.name
    return Path(os.path.relpath(real, root)).as_posix()


# -- reading patches back ------------------------------------------------------------------


class PatchFormatError(ValueError):
    """A patch that `unified_diff` cannot have written, or that does not fit the file."""


@dataclass(frozen=True)
class Hunk:
    """One hunk of a unified diff."""

    old_start: int  # 1-based; for an empty range, the line before it (as in the header)
    new_start: int
    lines: tuple[bytes, ...]  # each starting with b" ", b"-" or b"+"; line ends kept exactly


@dataclass(frozen=True)
class FilePatch:
    """The hunks of one file's diff."""

    old_path: str
    new_path: str
    hunks: tuple[Hunk, ...]


_HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_patch(data: bytes) -> list[FilePatch]:
    """The files of a patch made of `unified_diff` outputs, in order.

    Hunk bodies are read by their line counts, never by what a line looks like, so a
    removed line that reads "-- a/x" cannot be mistaken for a file header.
    """
    lines = split_lines(data)  # on b"\n" only: a CR belongs to its line
    files: list[FilePatch] = []
    index = 0
    while index < len(lines):
        created = lines[index] == f"--- {DEV_NULL}\n".encode()
        if not ((created or lines[index].startswith(b"--- a/")) and index + 1 < len(lines)
                and lines[index + 1].startswith(b"+++ b/")):
            raise PatchFormatError(f"line {index + 1}: expected a '--- a/' file header")
        old_path = DEV_NULL if created else _header_path(lines[index], 6)
        new_path = _header_path(lines[index + 1], 6)
        index += 2
        hunks: list[Hunk] = []
        while index < len(lines) and lines[index].startswith(b"@@"):
            hunk, index = _read_hunk(lines, index)
            hunks.append(hunk)
        if not hunks:
            raise PatchFormatError(f"{old_path}: a file header without hunks")
        files.append(FilePatch(old_path, new_path, tuple(hunks)))
    return files


def _header_path(line: bytes, prefix: int) -> str:
    return line[prefix:].rstrip(b"\n").decode("utf-8", "surrogateescape")


def _read_hunk(lines: list[bytes], index: int) -> tuple[Hunk, int]:
    match = _HUNK.match(lines[index])
    if match is None:
        raise PatchFormatError(f"line {index + 1}: malformed hunk header")
    old_start, new_start = int(match[1]), int(match[3])
    old_left = 1 if match[2] is None else int(match[2])
    new_left = 1 if match[4] is None else int(match[4])
    index += 1
    body: list[bytes] = []
    while old_left or new_left:
        if index >= len(lines):
            raise PatchFormatError("the patch ends inside a hunk")
        line = lines[index]
        kind = line[:1]
        if kind == b" ":
            old_left, new_left = old_left - 1, new_left - 1
        elif kind == b"-":
            old_left -= 1
        elif kind == b"+":
            new_left -= 1
        else:
            raise PatchFormatError(f"line {index + 1}: not a line of a hunk")
        if old_left < 0 or new_left < 0:
            raise PatchFormatError(f"line {index + 1}: more lines than the hunk header says")
        index += 1
        if index < len(lines) and lines[index] == NO_NEWLINE:
            line = line[:-1]  # the file's last line has no newline: drop the one we added
            index += 1
        body.append(line)
    return Hunk(old_start, new_start, tuple(body)), index


def reverse_apply(patch: FilePatch, after: bytes) -> bytes:
    """The file as it was before `patch`, from its bytes after it. Exact: every context
    and added line must be where the patch says, byte for byte."""
    current = split_lines(after)
    result: list[bytes] = []
    position = 0  # lines of `current` consumed so far
    for hunk in patch.hunks:
        new_side = [line[1:] for line in hunk.lines if line[:1] in (b" ", b"+")]
        old_side = [line[1:] for line in hunk.lines if line[:1] in (b" ", b"-")]
        # An empty new range names the line before it; otherwise its first line.
        start = hunk.new_start if not new_side else hunk.new_start - 1
        if start < position or current[start:start + len(new_side)] != new_side:
            raise PatchFormatError(f"{patch.new_path}: hunk at line {hunk.new_start} does "
                                   "not match the file")
        result += current[position:start]
        result += old_side
        position = start + len(new_side)
    result += current[position:]
    return b"".join(result)
