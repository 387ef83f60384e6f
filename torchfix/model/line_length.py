"""The line length a project's formatter keeps to, read from its ruff or black configuration.

A codemod that lays new code out over lines (a call too long for one line) should break
it where the project's own formatter would. Looked for at the project root, in ruff's
order: `.ruff.toml`, `ruff.toml` (top-level `line-length`), then `pyproject.toml`
(`[tool.ruff] line-length`, else `[tool.black] line-length`); with neither ruff nor black
configured, flake8's `max-line-length` (`[flake8]`, else `[pycodestyle]`/`[pep8]`, in
`setup.cfg`, `tox.ini` or `.flake8`); else `[tool.yapf] column_limit`.
"""

from __future__ import annotations

import configparser
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

_MAX_FILE_BYTES = 1_000_000


def find_line_length(root: Path) -> int | None:
    """The configured line length at `root`; None when no ruff, black, flake8 or yapf
    configuration there sets one (or it cannot be read)."""
    for name in (".ruff.toml", "ruff.toml"):
        document = _toml(root / name)
        if document is not None:
            return _positive_int(document.get("line-length"))
    document = _toml(root / "pyproject.toml") or {}
    tool = document.get("tool")
    if not isinstance(tool, dict):
        tool = {}
    for section in ("ruff", "black"):
        table = tool.get(section)
        if isinstance(table, dict):
            found = _positive_int(table.get("line-length", table.get("line_length")))
            if found is not None:
                return found
    if not any(isinstance(tool.get(section), dict) for section in ("ruff", "black")):
        found = _flake8_line_length(root)  # no formatter: the line the linter allows
        if found is not None:
            return found
    yapf = tool.get("yapf")  # a project formatted by yapf: its column limit
    if isinstance(yapf, dict):
        return _positive_int(yapf.get("column_limit", yapf.get("column-limit")))
    return None


def _flake8_line_length(root: Path) -> int | None:
    """`max-line-length` of the `[flake8]` (else `[pycodestyle]`, `[pep8]`) section of
    `setup.cfg`, `tox.ini` or `.flake8`, the first that sets one."""
    for section in ("flake8", "pycodestyle", "pep8"):
        for name in ("setup.cfg", "tox.ini", ".flake8"):
            path = root / name
            parser = configparser.RawConfigParser(strict=False)
            try:
                if not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
                    continue
                parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
            except (OSError, configparser.Error):
                continue
            for key in ("max-line-length", "max_line_length"):
                if parser.has_option(section, key):
                    value = parser.get(section, key).strip()
                    if value.isdigit() and int(value) > 0:
                        return int(value)
    return None


def _toml(path: Path) -> dict[str, Any] | None:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
            return None
        return tomllib.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, tomllib.TOMLDecodeError):
        return None


def _positive_int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None
