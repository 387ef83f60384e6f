"""Unified diffs that `git apply` accepts, computed on bytes so encodings, BOMs and CRLF
line endings come through exactly as they are in the file."""

from __future__ import annotations

import difflib
import os
from functools import lru_cache
from pathlib import Path

NO_NEWLINE = b"\\ No newline at end of file\n"


def unified_diff(old: bytes, new: bytes, display_path: str, context: int = 3) -> bytes:
    """A unified diff between two versions of one file, with a/ and b/ prefixes."""
    old_lines, new_lines = split_lines(old), split_lines(new)
    header_path = display_path.encode("utf-8", "surrogateescape")
    out: list[bytes] = []
    for index, line in enumerate(difflib.diff_bytes(
        difflib.unified_diff,
        old_lines,
        new_lines,
        fromfile=b"a/" + header_path,
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


def display_path(path: Path) -> str:
    """The path as `git apply` expects it: relative to the repository root, else the cwd."""
    absolute = Path(os.path.abspath(path))
    root = git_root(absolute.parent)
    base = root if root is not None else Path.cwd()
    return Path(os.path.relpath(absolute, base)).as_posix()


@lru_cache(maxsize=1024)
def git_root(folder: Path) -> Path | None:
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None
