"""The line length a project's formatter keeps to, and how it lays out a call over lines.

A codemod that lays new code out over lines (a call too long for one line) should break
it where, and as, the project's own formatter would. Looked for at the project root:

- ruff: `.ruff.toml`, `ruff.toml` (top-level `line-length`), else `pyproject.toml`'s
  `[tool.ruff] line-length`; black: `[tool.black] line-length`.
- yapf: `[yapf]` in `setup.cfg`, `[style]` in `.style.yapf`, `[tool.yapf]` in
  `pyproject.toml` (or a yapf pre-commit hook): `column_limit`, else its
  `based_on_style`'s (pep8 79; google, facebook, yapf 80). yapf keeps a closing
  bracket after the last argument unless `dedent_closing_brackets` (facebook) says not.
- `[tool.ruff]` or `[tool.black]` without a length (and no yapf): 88, their default.
- black run without a `[tool.black]` table (a black pre-commit hook, `black` among the
  requirements: `requirements*.txt`, `requirements/*.txt`, `setup.cfg`'s
  `[options.extras_require]`, `pyproject.toml`'s optional or development dependencies;
  or isort's `profile = black`): 88, black's default, whatever flake8 allows.
- with no formatter, the line flake8 allows: `max-line-length` of `[flake8]` (else
  `[pycodestyle]`, `[pep8]`) in `setup.cfg`, `tox.ini` or `.flake8`; where such a
  section sets none, 79, pycodestyle's default, unless it ignores `E501`.
"""

from __future__ import annotations

import configparser
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

_MAX_FILE_BYTES = 1_000_000
BLACK_LINE_LENGTH = 88
FLAKE8_LINE_LENGTH = 79
# yapf's predefined styles and their column limit.
_YAPF_COLUMNS = {"pep8": 79, "google": 80, "facebook": 80, "yapf": 80}
_FLAKE8_SECTIONS = ("flake8", "pycodestyle", "pep8")
_FLAKE8_FILES = ("setup.cfg", "tox.ini", ".flake8")


@dataclass(frozen=True)
class Formatting:
    """The project's formatter (`"ruff"`, `"black"`, `"yapf"`; None: none found) and the
    line length it (or, without one, flake8) keeps to."""

    line_length: int | None = None
    formatter: str | None = None
    # The closing bracket of a call split over lines stays after its last argument
    # (yapf without `dedent_closing_brackets`), instead of on a line of its own.
    hugs_closing_bracket: bool = False


def find_line_length(root: Path) -> int | None:
    """The configured line length at `root`; None when no ruff, black, yapf or flake8
    configuration there sets one (or it cannot be read)."""
    return find_formatting(root).line_length


def find_formatting(root: Path) -> Formatting:
    """The formatter at `root` and its line length (see the module's docstring)."""
    for name in (".ruff.toml", "ruff.toml"):
        document = _toml(root / name)
        if document is not None:
            return Formatting(_positive_int(document.get("line-length")), "ruff")
    document = _toml(root / "pyproject.toml") or {}
    tool = _table(document.get("tool"))
    for section in ("ruff", "black"):
        table = tool.get(section)
        if isinstance(table, dict):
            found = _positive_int(table.get("line-length", table.get("line_length")))
            if found is not None:
                return Formatting(found, section)
    yapf = _yapf_style(root, tool)
    if yapf is not None:  # ruff's lint rules may be configured, yapf formats
        return yapf
    for section in ("ruff", "black"):
        if isinstance(tool.get(section), dict):
            return Formatting(None, section)
    if _runs_black(root, document):
        return Formatting(BLACK_LINE_LENGTH, "black")
    return Formatting(_flake8_line_length(root))


def _yapf_style(root: Path, tool: dict[str, Any]) -> Formatting | None:
    """yapf's column limit and closing-bracket style, where the project configures yapf."""
    style: dict[str, str] | None = None
    table = tool.get("yapf")
    if isinstance(table, dict):
        style = {str(key).replace("-", "_").lower(): str(value).lower()
                 for key, value in table.items()}
    for name, section in (("setup.cfg", "yapf"), (".style.yapf", "style")):
        if style is not None:
            break
        parser = _ini(root / name)
        if parser is not None and parser.has_section(section):
            style = {key.replace("-", "_").lower(): value.strip().lower()
                     for key, value in parser.items(section)}
    if style is None:
        if not _pre_commit_hook(root, "yapf"):
            return None
        style = {}  # yapf's own default style: pep8
    based_on = style.get("based_on_style", "pep8").strip("'\"")
    limit = style.get("column_limit", "")
    length = int(limit) if limit.isdigit() and int(limit) > 0 else _YAPF_COLUMNS.get(
        based_on, _YAPF_COLUMNS["pep8"])
    dedent = style.get("dedent_closing_brackets")
    dedents = dedent in ("true", "1", "yes", "on") if dedent is not None else (
        based_on == "facebook")
    return Formatting(length, "yapf", hugs_closing_bracket=not dedents)


def _runs_black(root: Path, pyproject: dict[str, Any]) -> bool:
    """Whether the project formats with black, though it has no `[tool.black]` table."""
    if _pre_commit_hook(root, "black"):
        return True
    for name in (".isort.cfg", "setup.cfg", "tox.ini"):
        parser = _ini(root / name)
        for section in ("settings", "isort", "tool:isort"):
            if parser is not None and parser.has_option(section, "profile") and (
                    parser.get(section, "profile").strip().strip("'\"") == "black"):
                return True
    isort = _table(_table(pyproject.get("tool")).get("isort"))
    if isort.get("profile") == "black":
        return True
    requirements: list[str] = []
    for path in [*sorted(root.glob("requirements*.txt")),
                 *sorted(root.glob("requirements/*.txt"))]:
        text = _text(path)
        if text is not None:
            requirements += text.splitlines()
    parser = _ini(root / "setup.cfg")
    if parser is not None and parser.has_section("options.extras_require"):
        for _, value in parser.items("options.extras_require"):
            requirements += value.splitlines()
    project = _table(pyproject.get("project"))
    groups = [_table(project.get("optional-dependencies")), _table(pyproject.get(
        "dependency-groups"))]
    for group in groups:
        for values in group.values():
            if isinstance(values, list):
                requirements += [value for value in values if isinstance(value, str)]
    poetry = _table(_table(pyproject.get("tool")).get("poetry"))
    names = list(_table(poetry.get("dev-dependencies")))
    for group in _table(poetry.get("group")).values():
        names += list(_table(_table(group).get("dependencies")))
    return any(_requirement_name(line) == "black" for line in [*requirements, *names])


def _requirement_name(line: str) -> str:
    """The distribution a requirement line names (`black>=23.1` → `black`), lower case."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
    return match.group(1).lower().replace("_", "-") if match else ""


def _pre_commit_hook(root: Path, hook: str) -> bool:
    """Whether `.pre-commit-config.yaml` runs the hook `hook` (`- id: black`)."""
    text = _text(root / ".pre-commit-config.yaml")
    if text is None:
        return False
    for line in text.splitlines():
        key, _, value = line.strip().removeprefix("-").strip().partition(":")
        if key.strip() == "id" and value.split("#")[0].strip().strip("'\"") == hook:
            return True
    return False


def _flake8_line_length(root: Path) -> int | None:
    """`max-line-length` of the `[flake8]` (else `[pycodestyle]`, `[pep8]`) section of
    `setup.cfg`, `tox.ini` or `.flake8`, the first that sets one (None where it cannot be
    read); where a section is there but sets none, pycodestyle's 79, unless the section
    ignores `E501`."""
    configured = False
    for section in _FLAKE8_SECTIONS:
        for name in _FLAKE8_FILES:
            parser = _ini(root / name)
            if parser is None or not parser.has_section(section):
                continue
            for key in ("max-line-length", "max_line_length"):
                if parser.has_option(section, key):
                    value = parser.get(section, key).strip()
                    return int(value) if value.isdigit() and int(value) > 0 else None
            ignored = [code for key in ("ignore", "extend-ignore", "extend_ignore")
                       if parser.has_option(section, key)
                       for code in re.split(r"[,\s]+", parser.get(section, key))]
            if any(code.split("#")[0].strip().upper() in ("E501", "E50", "E5", "E")
                   for code in ignored):
                return None
            configured = True
    return FLAKE8_LINE_LENGTH if configured else None


def _ini(path: Path) -> configparser.RawConfigParser | None:
    text = _text(path)
    if text is None:
        return None
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    return parser


def _text(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _table(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


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
