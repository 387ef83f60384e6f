"""How a project's import sorter (ruff's isort rules, or isort) wants imports ordered.

A codemod that adds an import places it where the project's sorter would
(`torchfix.rewrite.import_order`), so the settings that move a new import are read here,
at the project root:
- ruff: `[lint.isort]` (or the older `[isort]`) of `.ruff.toml` / `ruff.toml`, else
  `[tool.ruff.lint.isort]` / `[tool.ruff.isort]` of `pyproject.toml`;
- else isort: `[tool.isort]` of `pyproject.toml`, `.isort.cfg` (`[settings]` or
  `[isort]`), `setup.cfg` or `tox.ini` (`[isort]` or `[tool:isort]`), the first found.

Read: `force-sort-within-sections` (plain and from-imports sorted together, by module),
`force-single-line`, `known-first-party` / `known-third-party`, isort's
`known_standard_library` (which replaces the standard library's list) and
`extra_standard_library`, `default-section`, `length-sort` /
`length-sort-straight` (shorter module names first), and isort's `profile`
(`google`, `open_stack` and `plone` sort within sections). Everything else keeps ruff's
defaults.
"""

from __future__ import annotations

import configparser
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from torchfix.model.line_length import _toml

_MAX_FILE_BYTES = 1_000_000
# isort profiles that sort plain and from-imports together, and force single lines.
_SORT_WITHIN_PROFILES = frozenset({"google", "open_stack", "plone"})
_SINGLE_LINE_PROFILES = frozenset({"google", "open_stack"})


@dataclass(frozen=True)
class ImportSettings:
    """How the project's import sorter orders imports."""

    force_sort_within_sections: bool = False
    force_single_line: bool = False
    # isort's `from_first` (ruff's `from-first`): `from x import y` before `import x` in
    # each section (instructlab-training, round 29)
    from_first: bool = False
    known_first_party: tuple[str, ...] = ()
    known_third_party: tuple[str, ...] = ()
    length_sort: bool = False  # every import by the length of its module name first
    length_sort_straight: bool = False  # only `import x` statements so
    # isort's `known_standard_library` replaces its list of the standard library (None:
    # Python's); `extra_standard_library` adds to it. basicsr lists only `pkg_resources`
    # and `setuptools`, so `os` and `typing` are third-party there.
    known_standard_library: tuple[str, ...] | None = None
    extra_standard_library: tuple[str, ...] = ()
    # Where a module of no known section goes: "third-party" (the default),
    # "first-party" or "standard-library" (isort's THIRDPARTY, FIRSTPARTY, STDLIB).
    default_section: str = "third-party"


def find_import_settings(root: Path) -> ImportSettings:
    """The import-sorting settings at `root`; the defaults when none are found."""
    table = _ruff_isort(root)
    if table is None:
        table = _isort(root)
    if table is None:
        return ImportSettings()
    table = {str(key).replace("_", "-"): value for key, value in table.items()}
    profile = str(table.get("profile", "")).strip().strip("\"'")
    return ImportSettings(
        force_sort_within_sections=_flag(table.get("force-sort-within-sections"),
                                         profile in _SORT_WITHIN_PROFILES),
        force_single_line=_flag(table.get("force-single-line"),
                                profile in _SINGLE_LINE_PROFILES),
        from_first=_flag(table.get("from-first"), False),
        known_first_party=_names(table.get("known-first-party")),
        known_third_party=_names(table.get("known-third-party")),
        length_sort=_flag(table.get("length-sort"), False),
        length_sort_straight=_flag(table.get("length-sort-straight"), False),
        known_standard_library=(_names(table["known-standard-library"])
                                if "known-standard-library" in table else None),
        extra_standard_library=_names(table.get("extra-standard-library")),
        default_section=_section_name(table.get("default-section")),
    )


def _section_name(value: object) -> str:
    """ruff's `default-section` ("first-party") or isort's `default_section`
    ("FIRSTPARTY") as ruff spells it; "third-party" for anything else."""
    name = str(value or "").strip().strip("\"'").lower().replace("-", "").replace("_", "")
    return {"firstparty": "first-party", "stdlib": "standard-library",
            "standardlibrary": "standard-library"}.get(name, "third-party")


def _ruff_isort(root: Path) -> dict[str, Any] | None:
    for name in (".ruff.toml", "ruff.toml"):
        document = _toml(root / name)
        if document is not None:
            return _isort_table(document)
    tool = (_toml(root / "pyproject.toml") or {}).get("tool")
    ruff = tool.get("ruff") if isinstance(tool, dict) else None
    return _isort_table(ruff) if isinstance(ruff, dict) else None


def _isort_table(ruff: dict[str, Any]) -> dict[str, Any] | None:
    lint = ruff.get("lint")
    for table in (lint.get("isort") if isinstance(lint, dict) else None, ruff.get("isort")):
        if isinstance(table, dict):
            return table
    return None


def _isort(root: Path) -> dict[str, Any] | None:
    tool = (_toml(root / "pyproject.toml") or {}).get("tool")
    if isinstance(tool, dict) and isinstance(tool.get("isort"), dict):
        return tool["isort"]
    for name, sections in ((".isort.cfg", ("settings", "isort")),
                           ("setup.cfg", ("isort", "tool:isort")),
                           ("tox.ini", ("isort", "tool:isort"))):
        found = _ini(root / name, sections)
        if found is not None:
            return found
    return None


def _ini(path: Path, sections: tuple[str, ...]) -> dict[str, Any] | None:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
            return None
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, configparser.Error):
        return None
    for section in sections:
        if parser.has_section(section):
            return dict(parser.items(section))
    return None


def _flag(value: object, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return default


def _names(value: object) -> tuple[str, ...]:
    if isinstance(value, str):  # an ini list: "a,b" or one a line
        value = value.replace("\n", ",").split(",")
    if isinstance(value, list):
        return tuple(name.strip().strip("\"'") for name in value
                     if isinstance(name, str) and name.strip())
    return ()
