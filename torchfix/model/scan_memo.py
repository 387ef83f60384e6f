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

import contextlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


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
