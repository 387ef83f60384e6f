"""Where torchfix may write: inside the project root, with every symlink resolved.

A repository is content someone else may control: its symlinks, its configuration and
anything committed under `.torchfix/` can point anywhere. Every place that writes (apply,
undo, run records) asks here first, and so does undo for the paths a run record names.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PureWindowsPath


def real(path: Path) -> Path:
    """`path` absolute with every symlink resolved (as far as it exists)."""
    return Path(os.path.realpath(path))


def is_inside(path: Path, root: Path) -> bool:
    """Whether `path`, symlinks resolved, is `root` or lies under it."""
    return real(path).is_relative_to(real(root))


def relative_path_problem(name: str) -> str | None:
    """Why `name`, a path a run record says is relative to the project root, cannot be
    used as one; None when it is a plain relative path that stays inside the root."""
    if not name:
        return "is empty"
    if "\0" in name:
        return "holds a NUL character"
    if name.startswith(("/", "\\")) or PureWindowsPath(name).drive:
        return "is absolute"
    # Backslashes separate folders on Windows; no real file name holds "\..\" anyway.
    parts = re.split(r"[\\/]", name)
    if ".." in parts:
        return "climbs out of the project root"
    if any(part in ("", ".") for part in parts):
        return "is not in the form torchfix records (empty or '.' parts)"
    if any(part.casefold() == ".git" for part in parts):
        return "points into a .git folder"
    return None
