"""Whether a project checks docstrings with darglint, and in which style.

darglint (a flake8 plugin) wants every parameter of a function with a docstring listed in
it (DAR101), so code a codemod inserts documents its parameters where darglint runs.
Read at the project root: a `[darglint]` section of `.darglint`, `setup.cfg`, `tox.ini`
or `.flake8` (its `docstring_style`: `google`, the default, `sphinx` or `numpy`), or
darglint named in `.pre-commit-config.yaml` (flake8's `additional_dependencies`).
"""

from __future__ import annotations

import configparser
from pathlib import Path

_MAX_FILE_BYTES = 1_000_000
STYLES = ("google", "sphinx", "numpy")
_CONFIGS = (".darglint", "setup.cfg", "tox.ini", ".flake8")


def find_darglint_style(root: Path) -> str | None:
    """The docstring style darglint checks in the project at `root`; None without
    darglint."""
    for name in _CONFIGS:
        section = _section(root / name, "darglint")
        if section is not None:
            style = section.get("docstring_style", "google").strip().lower()
            return style if style in STYLES else "google"
    hooks = _text(root / ".pre-commit-config.yaml")
    if hooks is not None and "darglint" in hooks.lower():
        return "google"
    return None


def _text(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _section(path: Path, name: str) -> dict[str, str] | None:
    text = _text(path)
    if text is None:
        return None
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return dict(parser.items(name)) if parser.has_section(name) else None
