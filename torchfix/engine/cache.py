"""Results of unchanged files, kept between runs so they are not parsed again.

An entry is keyed by the file's path and content hash, the torchfix and libcst versions,
the code of torchfix and its codemods, and every setting that shapes a result; any
change to one of them misses. Only results that carry no new file text are stored (an
unchanged file, findings, bad input); a file that would be rewritten is always processed.

The cache lives in `.torchfix_cache/` at the project root. It is safe to delete, holds a
`.gitignore` so git never sees it, and is bypassed with `--no-cache`. An entry that does
not decode to a complete, valid result is a miss and is rewritten. A well-formed entry is
trusted as it is: the cache is local, written by torchfix for this user, so whoever can
forge one can edit the files themselves (see the README).
"""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import hashlib
import importlib.util
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from torchfix import __version__
from torchfix.engine.results import EngineSettings, FileError, FileResult
from torchfix.rewrite.changes import Change, Safety

if TYPE_CHECKING:
    from torchfix.model.project import Project
    from torchfix.model.scan_memo import FactMemo, ScanMemo

FOLDER_NAME = ".torchfix_cache"
_FORMAT = 4  # 2: changes carry their end position; 3: and the project facts they read;
# 4: and their TorchFix code


@dataclasses.dataclass(frozen=True)
class ResultCache:
    """The result cache of one project root, for one fingerprint of tool and settings."""

    folder: Path
    fingerprint: str  # tool, code and settings: part of every key

    @classmethod
    def at(cls, root: Path, settings: EngineSettings) -> ResultCache:
        return cls(root / FOLDER_NAME, _fingerprint(settings))

    def key(self, path: Path, data: bytes) -> str:
        digest = hashlib.sha256(self.fingerprint.encode())
        digest.update(os.fsencode(os.path.abspath(path)))
        digest.update(b"\0")
        digest.update(data)
        return digest.hexdigest()

    def get(self, key: str, path: Path, project: Project | None = None) -> FileResult | None:
        """The cached result, if there is one and every project fact it read still holds."""
        try:
            entry = json.loads((self.folder / key[:2] / key).read_bytes())
        except (OSError, ValueError, RecursionError):  # RecursionError: absurdly deep JSON
            return None
        result = _decode(entry, path)
        if result is not None and result.facts and (
            project is None
            or any(project.current_digest(fact) != digest for fact, digest in result.facts)
        ):
            return None
        return result

    def put(self, key: str, result: FileResult) -> None:
        if (
            result.output is not None
            or result.creates  # a file to create is part of a rewrite
            or result.skipped is not None  # depends on how the file was named, not its text
            or (result.error is not None and result.error.internal)
        ):
            return  # rewrites are always redone; a torchfix bug may be fixed by next time
        shard = self.folder / key[:2]
        try:
            shard.mkdir(parents=True, exist_ok=True)
            self._ignore_in_git()
            handle, temp = tempfile.mkstemp(dir=shard, prefix=".", suffix=".tmp")
            with os.fdopen(handle, "w") as out:
                json.dump(_encode(result), out)
            os.replace(temp, shard / key)
        except OSError:
            # A read-only or full disk only costs speed: never fail a run over the cache.
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(temp)

    def _ignore_in_git(self) -> None:
        marker = self.folder / ".gitignore"
        if not marker.exists():
            marker.write_text("# Created by torchfix; safe to delete.\n*\n")

    def scan_memo(self, name: str) -> ScanMemo:
        """A memo of a project-wide scan kept beside the results (`torchfix.model.scan_memo`),
        valid for this torchfix's sources."""
        from torchfix.model.scan_memo import ScanMemo

        return ScanMemo(self.folder / f"scan-{name}.json", _code_fingerprint(),
                        prepare=self._make_folder)

    def fact_memo(self) -> FactMemo:
        """The memo of project-wide facts kept beside the results
        (`torchfix.model.scan_memo.FactMemo`), valid for this torchfix's sources."""
        from torchfix.model.scan_memo import FactMemo

        return FactMemo(self.folder / "facts.json", _code_fingerprint(),
                        prepare=self._make_folder)

    def _make_folder(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._ignore_in_git()


def _encode(result: FileResult) -> dict[str, Any]:
    return {
        "format": _FORMAT,
        "changes": [
            [c.codemod, c.line, c.column, c.message, c.safety.value, c.applied, c.end_line,
             c.end_column, c.code]
            for c in result.changes
        ],
        "error": result.error._asdict() if result.error else None,
        "parsed": result.parsed,
        "skipped": result.skipped,
        "encoding": result.encoding,
        "facts": [list(fact) for fact in result.facts],
    }


def _decode(entry: Any, path: Path) -> FileResult | None:
    """The result an entry holds, or None (a miss, so the file is processed again and the
    entry rewritten) unless it decodes to a complete, valid result: a truncated, edited
    or old entry must never crash a run, nor take the place of one."""
    try:
        if not isinstance(entry, dict) or entry.get("format") != _FORMAT:
            return None
        changes = tuple(_change(item) for item in entry["changes"])
        error = entry["error"]
        if error is not None:
            error = FileError(**error)
            if not isinstance(error.message, str) or not isinstance(error.internal, bool) \
                    or not isinstance(error.codemod, str | None):
                return None
        parsed, skipped, encoding = entry["parsed"], entry["skipped"], entry["encoding"]
        if not isinstance(parsed, bool) or not isinstance(skipped, str | None) \
                or not isinstance(encoding, str):
            return None
        codecs.lookup(encoding)
    except (KeyError, TypeError, ValueError, LookupError):
        return None
    facts = entry.get("facts", [])
    if not isinstance(facts, list) or not all(
        isinstance(fact, list) and len(fact) == 2 and all(isinstance(v, str) for v in fact)
        for fact in facts
    ):
        return None
    return FileResult(path, changes=changes, error=error, parsed=parsed, skipped=skipped,
                      encoding=encoding, facts=tuple((key, digest) for key, digest in facts))


def _change(item: Any) -> Change:
    """One change as `_encode` wrote it; TypeError or ValueError if it is not one."""
    codemod, line, column, message, safety, applied, end_line, end_column, code = item
    if not (isinstance(codemod, str) and isinstance(message, str)
            and type(line) is int and type(column) is int and isinstance(applied, bool)
            and isinstance(end_line, int | None) and isinstance(end_column, int | None)
            and isinstance(code, str | None)):
        raise TypeError("not a change")
    return Change(codemod, line, column, message, Safety(safety), applied, end_line,
                  end_column, code)


def _fingerprint(settings: EngineSettings) -> str:
    return json.dumps(
        {
            "torchfix": __version__,
            "libcst": _libcst_fingerprint(),
            "code": _code_fingerprint(),
            # The size limit is applied before the cache is asked: it never shapes a result.
            "settings": {key: value for key, value in dataclasses.asdict(settings).items()
                         if key != "max_file_bytes"},
        },
        sort_keys=True,
        default=str,
    )


@cache
def _libcst_fingerprint() -> str:
    """Where libcst is installed and when: an upgrade (which may print code differently)
    invalidates the cache. Read from the file system, not `importlib.metadata`, whose
    import alone costs more than a warm check of a small file."""
    spec = importlib.util.find_spec("libcst")
    if spec is None or spec.origin is None:
        return "missing"
    version_file = Path(spec.origin).with_name("_version.py")
    try:
        status = version_file.stat()
    except OSError:
        return spec.origin
    return f"{version_file}:{status.st_size}:{status.st_mtime_ns}"


@cache
def _code_fingerprint() -> str:
    """Sizes and mtimes of torchfix's own sources: editing a codemod invalidates the cache."""
    import torchfix
    from torchfix.rewrite.registry import codemods_package

    digest = hashlib.sha256()
    for package in (torchfix, codemods_package()):
        # os.walk and string paths: this runs on every call, and pathlib's rglob and
        # sorting of Path objects cost more than a warm check of a small file.
        sources = sorted(
            os.path.join(folder, name)
            for folder, _, names in os.walk(os.path.dirname(package.__file__))
            for name in names if name.endswith(".py")
        )
        for source in sources:
            status = os.stat(source)
            digest.update(f"{source}:{status.st_size}:{status.st_mtime_ns}".encode())
    return digest.hexdigest()
