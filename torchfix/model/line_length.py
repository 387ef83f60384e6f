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
- yapf listed among the requirements (as black above, or in `setup.py`'s lists), with no
  style configured: yapf, closing bracket hugged; its line length flake8's (below), else
  inferred from the code (below) with pep8's 79 as the base.
- with no formatter, the line flake8 allows: `max-line-length` of `[flake8]` (else
  `[pycodestyle]`, `[pep8]`) in `setup.cfg`, `tox.ini` or `.flake8`; where such a
  section sets none, 79, pycodestyle's default, unless it ignores `E501`.
- where nothing above sets a length, it is inferred from the project's own code
  (`infer_line_length`, asked by `Project.formatter_line_length()`): the non-test modules'
  lines of code (blank, comment-only and `noqa` lines aside). Where at least 0.5% of them
  (and 5 or more) run past the base (black's 88; yapf's 79), the project evidently
  allows longer lines, and its length is the smallest common limit (88, 99, 100, 110,
  119, 120, 127, 140, 150, 160) that at most 0.1% of them exceed: a 120-column project
  has a few lines past 119 but hardly any past 120. None where the code keeps to the
  base, or to no common limit at all.
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
    # Where no configuration sets the line length: the length the code is taken to keep
    # to unless its own lines show a longer one (`infer_line_length`); None where a
    # configuration sets the length (or a formatter's default applies).
    infer_from: int | None = None


# Inferring the line length from the code: the limits a project may keep to, and the
# lengths a scan of one file counts the lines past (`line_counts`).
COMMON_LIMITS = (88, 99, 100, 110, 119, 120, 127, 140, 150, 160)
_COUNTED_PAST = (FLAKE8_LINE_LENGTH, *COMMON_LIMITS)
# A share of the lines past the base that shows the project allows longer lines (with
# at least this many lines), and the share a limit may leave past it.
LONGER_SHARE = 0.005
LONGER_MIN_LINES = 5
NEARLY_ALL_SHARE = 0.0005
# A comment for a type checker, linter, formatter or torchfix: a line holding one is not
# reflowed by the codemods, and when inferring the line length it is left out of the
# line's length, as ruff's E501 does (mistral-inference's `# type: ignore[...]` lines past
# 120 made its 120 columns look like 140, round 18)
PRAGMA = re.compile(r"#\s*(type:|noqa|pragma|pyright:|pylint:|mypy:|fmt:|isort:|nosec|torchfix:)")


def line_counts(path: Path) -> list[int]:
    """[lines of code, lines longer than each of 79 and `COMMON_LIMITS`, lines that begin
    with a closing bracket] in the module at `path`. Blank and comment-only lines are not
    counted; a line that holds a string (a quote) or lies in a triple-quoted one, or
    carries `noqa`, counts, but never as a long one: a formatter cannot wrap a long
    string (black leaves docstrings and messages past 88), so only code shows the length
    it wraps at; a trailing pragma comment (`# type: ignore`) is not part of the length.
    A JSON value, remembered per file (`Project.inferred_line_length`)."""
    counts = [0] * (2 + len(_COUNTED_PAST))
    text = _text(path)
    if text is None:
        return counts
    quote: str | None = None  # the triple quote a string open at the line's start began
    for line in text.splitlines():
        stripped = line.strip()
        in_string = quote is not None
        quote = _open_triple_quote(line, quote)
        if not in_string and (not stripped or stripped.startswith("#")):
            continue
        counts[0] += 1
        if not in_string and stripped[0] in ")]}":
            counts[-1] += 1
        if in_string or "'" in line or '"' in line or "noqa" in line:
            continue
        pragma = PRAGMA.search(line)  # no quote on the line: `#` starts a comment
        width = len((line[:pragma.start()] if pragma else line).rstrip())
        for index, limit in enumerate(_COUNTED_PAST, 1):
            if width > limit:
                counts[index] += 1
    return counts


def _open_triple_quote(line: str, quote: str | None) -> str | None:
    """The triple quote still open after `line`, given the one open before it, by looking
    for triple quotes (one inside a comment or another string misleads it up to the next
    triple quote: a rough measure, on many thousands of lines)."""
    index = 0
    while True:
        if quote is None:
            found = [(line.find(mark, index), mark) for mark in ('"""', "'''")]
            found = [(at, mark) for at, mark in found if at >= 0]
            if not found:
                return None
            at, quote = min(found)
        else:
            at = line.find(quote, index)
            if at < 0:
                return quote
            quote = None
        index = at + 3


# yapf's `dedent_closing_brackets` shows as many lines that begin with a closing bracket
# (5.5% of DI-engine's lines; under 1% of the hugging mmsegmentation's, garage's, basicsr's).
DEDENT_SHARE = 0.03


def infer_dedents(counts: list[int]) -> bool:
    """Whether the project's code puts a closing bracket on a line of its own (yapf's
    `dedent_closing_brackets`, black's layout), from its summed `line_counts`."""
    return bool(counts) and counts[-1] >= DEDENT_SHARE * max(counts[0], 1) and counts[0] > 0


def infer_line_length(counts: list[int], base: int) -> int | None:
    """The line length the project's code keeps to, from the summed `line_counts` of its
    modules: None where it keeps to `base` (79 or 88), else the smallest common limit
    above `base` that nearly all of its lines keep to (None where none does)."""
    total = counts[0] if counts else 0
    past = dict(zip(_COUNTED_PAST, counts[1:], strict=False))
    if base not in past or total == 0:
        return None
    if past[base] < max(LONGER_MIN_LINES, LONGER_SHARE * total):
        return None
    return next((limit for limit in COMMON_LIMITS
                 if limit > base and past[limit] <= NEARLY_ALL_SHARE * total), None)


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
    listed = _listed_requirements(root, document)
    if _runs_black(root, document) or "black" in listed:
        return Formatting(BLACK_LINE_LENGTH, "black")
    flake8 = _flake8_line_length(root)
    if "yapf" in listed:  # yapf's style is not in the files: its length is flake8's
        return Formatting(flake8, "yapf", hugs_closing_bracket=True,
                          infer_from=None if flake8 is not None else _YAPF_COLUMNS["pep8"])
    return Formatting(flake8, infer_from=None if flake8 is not None else BLACK_LINE_LENGTH)


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
    """Whether the project formats with black, though it has no `[tool.black]` table: a
    black pre-commit hook, or isort's black profile (black among the requirements is
    `_listed_requirements`)."""
    if _pre_commit_hook(root, "black"):
        return True
    for name in (".isort.cfg", "setup.cfg", "tox.ini"):
        parser = _ini(root / name)
        for section in ("settings", "isort", "tool:isort"):
            if parser is not None and parser.has_option(section, "profile") and (
                    parser.get(section, "profile").strip().strip("'\"") == "black"):
                return True
    isort = _table(_table(pyproject.get("tool")).get("isort"))
    return isort.get("profile") == "black"


def _listed_requirements(root: Path, pyproject: dict[str, Any]) -> set[str]:
    """The distributions the project lists among its requirements (lower case):
    `requirements*.txt`, `requirements/*.txt`, `setup.cfg`'s `[options.extras_require]`,
    `pyproject.toml`'s optional and development dependencies, and the requirement
    strings in `setup.py`'s lists (`install_requires`, `extras_require`)."""
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
    requirements += _setup_py_requirements(root / "setup.py")
    poetry = _table(_table(pyproject.get("tool")).get("poetry"))
    names = {name.lower() for name in _table(poetry.get("dev-dependencies"))}
    for group in _table(poetry.get("group")).values():
        names |= {name.lower() for name in _table(_table(group).get("dependencies"))}
    return names | {_requirement_name(line) for line in requirements} - {""}


_REQUIREMENT = re.compile(r"\s*[A-Za-z0-9][A-Za-z0-9._-]*\s*(\[[^\]]*\])?\s*([<>=!~;].*)?")


def _setup_py_requirements(path: Path) -> list[str]:
    """The strings in `setup.py`'s lists and tuples that read as requirements
    (`'yapf==0.29.0'`, `"black"`), read with `ast`, never run."""
    import ast

    text = _text(path)
    if text is None:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    return [element.value for node in ast.walk(tree) if isinstance(node, (ast.List, ast.Tuple))
            for element in node.elts
            if isinstance(element, ast.Constant) and isinstance(element.value, str)
            and _REQUIREMENT.fullmatch(element.value)]


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
