"""Each file's part of a project-wide scan, remembered between runs.

A warm `check` confirms every project fact its cached results read. A fact drawn from every
file of the project (the torch version checks in its code, for a project that declares no
torch version) would be worked out from all of them again on each run: on timm, more than
the rest of the warm run together. The memo keeps each file's part of the scan with the
file's size and modification time, in the result cache's folder, and reads a file again only
when those changed (git's index does the same). It is written atomically, and a memo that
cannot be read, or that an older torchfix wrote, is an empty one.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from torchfix.model.test_code import is_test_path


class ScanMemo:
    """One scan's per-file results in `path` (a JSON file), valid for torchfix `code`."""

    def __init__(self, path: Path, code: str, prepare: Callable[[], None] | None = None
                 ) -> None:
        self.path = path
        self.code = code  # the fingerprint of torchfix's own sources: a new rule rescans
        # Makes the memo's folder (the cache's, with its .gitignore) when first written.
        self.prepare = prepare
        self._files: dict[str, list[Any]] | None = None
        self._seen: set[str] = set()
        self._changed = False

    def result(self, file: Path, key: str, scan: Callable[[Path], Any]) -> Any:
        """`scan(file)` (a JSON value), or what it gave when the file last had this size
        and modification time."""
        files = self._load()
        self._seen.add(key)
        try:
            status = file.stat()
        except OSError:
            return scan(file)
        stamp = [status.st_size, status.st_mtime_ns]
        known = files.get(key)
        if known is not None and known[:2] == stamp:
            return known[2]
        value = scan(file)
        files[key] = [*stamp, value]
        self._changed = True
        return value

    def save(self) -> None:
        """Write what changed, forgetting files the scan no longer visits (deleted ones);
        a memo that cannot be written is only a slower next run."""
        if self._files is None:
            return
        if set(self._files) - self._seen:
            self._files = {key: self._files[key] for key in self._seen if key in self._files}
            self._changed = True
        if not self._changed:
            return
        with contextlib.suppress(OSError):
            if self.prepare is not None:
                self.prepare()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(dir=self.path.parent, prefix=".", suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    json.dump({"code": self.code, "files": self._files}, out)
                os.replace(temp, self.path)
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise
        self._changed = False

    def _load(self) -> dict[str, list[Any]]:
        if self._files is None:
            self._files = {}
            try:
                document = json.loads(self.path.read_bytes())
            except (OSError, ValueError, RecursionError):
                return self._files
            if (isinstance(document, dict) and document.get("code") == self.code
                    and isinstance(document.get("files"), dict)):
                self._files = {
                    key: value for key, value in document["files"].items()
                    if isinstance(value, list) and len(value) == 3
                }
        return self._files


# A file modified this close to the moment its folder was looked at may be modified again
# within the same tick of the file system's clock, keeping its size and modification time
# (git's "racily clean" entries): a stamp holding such a file is never trusted.
_RACY_NS = 2_000_000_000


# Folders below a project root that hold no module of its own.
SKIPPED_FOLDERS = frozenset({"build", "dist", "site-packages", "node_modules", "venv"})


def project_modules(root: str | Path, *, tests: bool = False) -> Iterator[Path]:
    """The Python files below `root` that are the project's own code, in sorted order:
    test files (or, with `tests`, only those) and hidden, build and environment folders
    aside. The scans that derive a project fact from every module walk these."""
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders
                            if not name.startswith(".") and name not in SKIPPED_FOLDERS)
        for name in sorted(files):
            path = Path(folder, name)
            if name.endswith(".py") and is_test_path(path) == tests:
                yield path


def every_answer(memo: ScanMemo | None, paths: Iterable[Path], scan: Callable[[Path], Any]
                 ) -> list[Any]:
    """`scan`'s answer for each of `paths`, in order, each remembered by `memo` (None: no
    memo)."""
    try:
        return [scan(path) if memo is None else memo.result(path, str(path), scan)
                for path in paths]
    finally:
        if memo is not None:
            memo.save()


def first_answer(memo: ScanMemo | None, paths: Iterable[Path], scan: Callable[[Path], Any]
                 ) -> tuple[Path, Any] | None:
    """The first of `paths` (in order) whose `scan` gives a true answer, with that answer;
    None when none does. Each file's answer is remembered by `memo` (None: no memo)."""
    try:
        for path in paths:
            answer = scan(path) if memo is None else memo.result(path, str(path), scan)
            if answer:
                return path, answer
        return None
    finally:
        if memo is not None:
            memo.save()


def tree_stamp(root: Path) -> str | None:
    """What every file below `root` is now, as one digest: each file's path, size and
    modification time (hidden folders, where no project fact is read, and `__pycache__`
    aside). None when a file changed too recently for its modification time to tell a
    later change apart, or the tree cannot be walked."""
    import hashlib
    import time

    digest = hashlib.sha256()
    now = time.time_ns()
    try:
        for folder, subfolders, files in os.walk(root, onerror=_raise):
            subfolders[:] = sorted(name for name in subfolders
                                   if not name.startswith(".") and name != "__pycache__")
            digest.update(os.fsencode(os.path.relpath(folder, root)) + b"\0")
            for name in sorted(files):
                status = os.stat(os.path.join(folder, name))
                if status.st_mtime_ns > now - _RACY_NS:
                    return None
                digest.update(f"{name}\0{status.st_size}\0{status.st_mtime_ns}\0".encode())
    except OSError:
        return None
    return digest.hexdigest()


def _raise(error: OSError) -> None:
    raise error


class FactMemo:
    """The digests of project-wide facts (`Project.current_digest`), remembered between runs
    for one state of the project's files (`tree_stamp`) and of torchfix's sources.

    A warm `check` confirms the project facts its cached results read by working each of
    them out again: the formatter's settings, the tests expecting an `AssertionError`, the
    count of modules a codemod rewrites in a package, ... together more than the rest of a
    warm run of a small project, and all of it imports modules nothing else in that run
    needs. While no file of the project changed (none added, removed, resized or touched),
    none of those facts can have changed, and their digests are read back from here.
    """

    def __init__(self, path: Path, code: str, prepare: Callable[[], None] | None = None
                 ) -> None:
        self.path = path
        self.code = code
        self.prepare = prepare
        self._stamp: str | None = None
        self._digests: dict[str, str] = {}
        self._unwritten = False

    def open(self, stamp: str | None) -> None:
        """Use the digests remembered for `stamp` (None: the project cannot be stamped; none
        are remembered or kept)."""
        self._stamp, self._digests, self._unwritten = stamp, {}, False
        if stamp is None:
            return
        try:
            document = json.loads(self.path.read_bytes())
        except (OSError, ValueError, RecursionError):
            return
        if (isinstance(document, dict) and document.get("code") == self.code
                and document.get("stamp") == stamp and isinstance(document.get("facts"), dict)):
            self._digests = {key: value for key, value in document["facts"].items()
                             if isinstance(key, str) and isinstance(value, str)}

    def get(self, key: str) -> str | None:
        return self._digests.get(key)

    def put(self, key: str, digest: str, *, write: bool = True) -> None:
        """Remember a digest just worked out: written at once, or with `write=False` at
        the next `flush()` (a cold run notes one per class it asks about)."""
        if self._stamp is None or self._digests.get(key) == digest:
            return
        self._digests[key] = digest
        self._unwritten = True
        if write:
            self.flush()

    def flush(self) -> None:
        """Write the digests remembered since the last write."""
        if self._stamp is None or not self._unwritten:
            return
        self._unwritten = False
        with contextlib.suppress(OSError):
            if self.prepare is not None:
                self.prepare()
            handle, temp = tempfile.mkstemp(dir=self.path.parent, prefix=".", suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    json.dump({"code": self.code, "stamp": self._stamp,
                               "facts": self._digests}, out)
                os.replace(temp, self.path)
            except OSError:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise


def parse_if_mentions(path: Path, *needles: bytes) -> ast.Module | None:
    """The module at `path` parsed with CPython's `ast`, where its text holds one of
    `needles` (any text, where none is given); None where it holds none of them, cannot
    be read or does not parse. The project-wide scans skip most modules on the bytes."""
    try:
        source = path.read_bytes()
    except OSError:
        return None
    if needles and not any(needle in source for needle in needles):
        return None
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None
