"""How a project's formatter and linter want new code written: line length (and which
formatter lays code out, `torchfix.model.line_length`), quotes, and
the lint rules that ask for a particular shape of code (ruff's `EM101`, `SIM102`, ...).

Read at the project root, in ruff's order: `.ruff.toml`, `ruff.toml` (top-level keys),
then `pyproject.toml` (`[tool.ruff]`, else `[tool.black]`). Quote style: ruff's
`[format] quote-style` ("single"/"double"; "preserve" says nothing), or black's
`skip-string-normalization` (false: double quotes); None when nothing says, and the code
then follows the file's own majority. Rules: `[lint] select`/`extend-select` (also the
older top-level keys), less `ignore`/`extend-ignore` and the `per-file-ignores` whose
pattern matches the file, by prefix (`"EM"` and `"ALL"` select `EM101`).

flake8 plugins count too, where the project runs them: darglint (`DAR401`, ...; its
`docstring_style` too) when `setup.cfg`, `tox.ini`, `.flake8` or `.darglint` has a
`[darglint]` section or the project lists
`darglint` among its requirements (`requirements*.txt`, `requirements/*.txt`,
`setup.py`, `setup.cfg`, `pyproject.toml`, `.pre-commit-config.yaml`); flake8-commas
(`C812`, ...) when flake8 is configured (a `[flake8]` section, or flake8 in the
pre-commit configuration) and `flake8-commas` is listed. The `[flake8]` section's
`ignore`/`extend-ignore` and `per-file-ignores` apply to them.
"""

from __future__ import annotations

import configparser
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from torchfix.model.line_length import _table, _toml, find_formatting


@dataclass(frozen=True)
class FormatterSettings:
    """How the project's formatter and linters want code written."""

    line_length: int | None = None
    quote: str | None = None  # '"' or "'" when the configuration fixes one
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # The flake8 plugins the project runs ("darglint", "flake8-commas"), and the rules
    # its `[flake8]` section ignores, for all files or by pattern.
    plugins: tuple[str, ...] = ()
    flake8_ignore: tuple[str, ...] = ()
    flake8_per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # The docstring style darglint checks (`google`, its default, `sphinx` or `numpy`)
    # where the project runs darglint; None where it does not.
    docstring_style: str | None = None
    # The formatter that lays the code out ("ruff", "black", "yapf"; None: none found),
    # and whether it keeps a call's closing bracket after its last argument (yapf).
    formatter: str | None = None
    hugs_closing_bracket: bool = False
    # black's / ruff format's `skip-magic-trailing-comma`: a trailing comma does not keep
    # a bracket split, so what fits the line length is joined onto one line.
    skip_magic_trailing_comma: bool = False
    # Where no configuration sets the line length: the base the length is inferred from
    # the project's code with (`torchfix.model.line_length.infer_line_length`; the
    # project model fills `line_length` in, `Project.formatter_settings()`).
    infer_line_length_from: int | None = None
    # ruff's `[lint.flake8-annotations] allow-star-arg-any`: ANN401 lets `*args: Any` and
    # `**kwargs: Any` pass (it still flags `Any` on the other parameters).
    allow_star_arg_any: bool = False
    # ruff's `[lint.flake8-tidy-imports] ban-relative-imports` (TID252): "parents" (its
    # default: `from ..x import y` is flagged, `from .x import y` is not) or "all".
    ban_relative_imports: str = "parents"
    # ruff's `[lint.mccabe] max-complexity` (C901, where selected), and flake8's
    # `max-complexity` (which is what turns its C901 on); None: not set.
    max_complexity: int | None = None
    flake8_max_complexity: int | None = None

    def enables(self, rule: str, path: str | None = None) -> bool:
        """Whether the lint rule `rule` (`"EM101"`, or a flake8 plugin's `"DAR401"`,
        `"C812"`) is enabled for the file at `path` (relative to the project root,
        `/`-separated; None: any file)."""
        plugin = next((name for name, prefix in _PLUGIN_RULES if rule.startswith(prefix)
                       and rule[len(prefix):].isdigit()), None)
        if plugin is not None:
            return plugin in self.plugins and not _ignored(
                rule, self.flake8_ignore, self.flake8_per_file_ignores, path)
        if not any(_covers(code, rule) for code in self.select):
            return False
        if any(_covers(code, rule) for code in self.ignore):
            return False
        if path is not None:
            for pattern, codes in self.per_file_ignores:
                if any(_covers(code, rule) for code in codes) and _matches(pattern, path):
                    return False
        return True


    def complexity_limit(self, path: str | None = None) -> int | None:
        """The McCabe complexity (`torchfix.model.complexity`) a function of the file at
        `path` may not pass without C901 failing it; None where no linter checks it."""
        if self.enables("C901", path):
            return self.max_complexity if self.max_complexity is not None else 10
        if self.flake8_max_complexity is not None and not _ignored(
                "C901", self.flake8_ignore, self.flake8_per_file_ignores, path):
            return self.flake8_max_complexity
        return None


def find_formatter_settings(root: Path) -> FormatterSettings:
    formatting = find_formatting(root)
    ruff: dict[str, Any] | None = None
    black: dict[str, Any] | None = None
    for name in (".ruff.toml", "ruff.toml"):
        ruff = _toml(root / name)
        if ruff is not None:
            break
    if ruff is None:
        tool = (_toml(root / "pyproject.toml") or {}).get("tool")
        if isinstance(tool, dict):
            # None where the section is absent: an empty table would stand for a ruff
            # configuration and keep black's settings from being read.
            ruff = tool["ruff"] if isinstance(tool.get("ruff"), dict) else None
            black = tool["black"] if isinstance(tool.get("black"), dict) else None
    quote: str | None = None
    select: list[str] = []
    ignore: list[str] = []
    per_file: list[tuple[str, tuple[str, ...]]] = []
    star_any = False
    ban_relative = "parents"
    max_complexity: int | None = None
    if ruff is not None:
        style = _table(ruff.get("format")).get("quote-style")
        quote = {"double": '"', "single": "'"}.get(style) if isinstance(style, str) else None
        for table in (ruff, _table(ruff.get("lint"))):
            select += _codes(table.get("select")) + _codes(table.get("extend-select"))
            ignore += _codes(table.get("ignore")) + _codes(table.get("extend-ignore"))
            for key in ("per-file-ignores", "extend-per-file-ignores"):
                for pattern, codes in _table(table.get(key)).items():
                    per_file.append((str(pattern), tuple(_codes(codes))))
            annotations = _table(table.get("flake8-annotations"))
            star_any = star_any or annotations.get("allow-star-arg-any") is True
            banned = _table(table.get("flake8-tidy-imports")).get("ban-relative-imports")
            if banned in ("parents", "all"):
                ban_relative = banned
            limit = _table(table.get("mccabe")).get("max-complexity")
            if isinstance(limit, int) and not isinstance(limit, bool):
                max_complexity = limit
    elif black is not None:
        skip = black.get("skip-string-normalization", black.get("skip_string_normalization"))
        quote = None if skip else '"'
    plugins, flake8_ignore, flake8_per_file, docstring_style, flake8_complexity = \
        _flake8_plugins(root)
    # The formatter that lays the code out decides whether a trailing comma is magic.
    layout = (_table(ruff.get("format")) if formatting.formatter == "ruff" and ruff
              else black if formatting.formatter == "black" and black else {})
    skip_magic = layout.get("skip-magic-trailing-comma",
                            layout.get("skip_magic_trailing_comma")) is True
    return FormatterSettings(formatting.line_length, quote, tuple(select), tuple(ignore),
                             tuple(per_file), plugins, flake8_ignore, flake8_per_file,
                             docstring_style, formatting.formatter,
                             formatting.hugs_closing_bracket, skip_magic,
                             formatting.infer_from, allow_star_arg_any=star_any,
                             ban_relative_imports=ban_relative,
                             max_complexity=max_complexity,
                             flake8_max_complexity=flake8_complexity)


# flake8 plugins and the prefix of their rules.
_PLUGIN_RULES = (("darglint", "DAR"), ("flake8-commas", "C8"))
_FLAKE8_CONFIGS = ("setup.cfg", "tox.ini", ".flake8", ".darglint")
DOCSTRING_STYLES = ("google", "sphinx", "numpy")
_REQUIREMENT_FILES = ("setup.py", "setup.cfg", "pyproject.toml", ".pre-commit-config.yaml",
                      "requirements.txt", "requirements-dev.txt", "dev-requirements.txt",
                      "requirements_dev.txt", "environment.yml")
_MAX_FILE_BYTES = 1_000_000


def _flake8_plugins(
    root: Path,
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...],
           str | None, int | None]:
    """(the flake8 plugins the project runs, the rules `[flake8]` ignores, its
    per-file-ignores, darglint's `docstring_style` where darglint runs, its
    `max-complexity`)."""
    sections: dict[str, dict[str, str]] = {}
    for name in _FLAKE8_CONFIGS:
        parser = configparser.RawConfigParser(strict=False)
        try:
            path = root / name
            if not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
                continue
            parser.read_string(path.read_text(encoding="utf-8", errors="replace"))
        except (OSError, configparser.Error):
            continue
        for section in ("flake8", "darglint"):
            if parser.has_section(section) and section not in sections:
                sections[section] = dict(parser.items(section))
    listed = _listed_packages(root)
    plugins: list[str] = []
    if "darglint" in sections or "darglint" in listed:
        plugins.append("darglint")
    if ("flake8" in sections or "flake8" in listed) and "flake8-commas" in listed:
        plugins.append("flake8-commas")
    flake8 = sections.get("flake8", {})
    ignore = [code for key in ("ignore", "extend-ignore", "extend_ignore")
              for code in _flake8_codes(flake8.get(key, ""))]
    per_file: list[tuple[str, tuple[str, ...]]] = []
    for entry in re.split(r"\n|(?<=\S)\s+(?=\S+:)", flake8.get("per-file-ignores", "")):
        pattern, _, codes = entry.strip().partition(":")
        if pattern and codes:
            per_file.append((pattern.strip(), tuple(_flake8_codes(codes))))
    style = None
    if "darglint" in plugins:
        style = sections.get("darglint", {}).get("docstring_style", "google").strip().lower()
        style = style if style in DOCSTRING_STYLES else "google"
    limit = flake8.get("max-complexity", flake8.get("max_complexity", "")).strip()
    complexity = int(limit) if limit.isdigit() else None
    return tuple(plugins), tuple(ignore), tuple(per_file), style, complexity


def _flake8_codes(value: str) -> list[str]:
    return [code.strip().upper() for code in re.split(r"[,\s]+", value) if code.strip()]


def _listed_packages(root: Path) -> set[str]:
    """Which of flake8, darglint and flake8-commas the project's requirement and
    pre-commit files name."""
    paths = [root / name for name in _REQUIREMENT_FILES]
    for pattern in ("requirements*.txt", "requirements/*.txt"):
        paths += sorted(root.glob(pattern))
    found: set[str] = set()
    for path in paths:
        try:
            if not path.is_file() or path.stat().st_size > _MAX_FILE_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace").lower()
        except OSError:
            continue
        for name in ("flake8", "darglint", "flake8-commas"):
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
                found.add(name)
    return found


def _ignored(rule: str, ignore: tuple[str, ...],
             per_file: tuple[tuple[str, tuple[str, ...]], ...], path: str | None) -> bool:
    if any(rule.startswith(code) for code in ignore):
        return True
    return path is not None and any(
        any(rule.startswith(code) for code in codes) and _matches(pattern, path)
        for pattern, codes in per_file)


def _codes(value: object) -> list[str]:
    if isinstance(value, list):
        return [code.strip().upper() for code in value if isinstance(code, str)]
    return []


def _covers(code: str, rule: str) -> bool:
    """Whether the selector `code` ("ALL", "EM", "EM1", "EM101") covers `rule`: the
    same linter (`E` is pycodestyle's and does not cover `EM101`), a prefix of the number."""
    if code == "ALL":
        return True
    letters = code.rstrip("0123456789")
    rule_letters = rule.rstrip("0123456789")
    if letters != rule_letters and not (
            letters == "PL" and rule_letters.startswith("PL") and code == letters):
        return False
    return rule.startswith(code) or (letters == "PL" and code == letters)


def _matches(pattern: str, path: str) -> bool:
    """ruff's per-file-ignores globs: a pattern without `/` matches the file name."""
    if "/" not in pattern and PurePosixPath(path).name and _glob(pattern).fullmatch(
            PurePosixPath(path).name):
        return True
    return _glob(pattern.removeprefix("./")).fullmatch(path) is not None


def _glob(pattern: str) -> re.Pattern[str]:
    """`**`, `*`, `?`, `[...]` and `{a,b}` as a regular expression."""
    out: list[str] = []
    index = 0
    depth = 0
    while index < len(pattern):
        character = pattern[index]
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if character == "*":
            out.append("[^/]*")
        elif character == "?":
            out.append("[^/]")
        elif character == "[":
            end = pattern.find("]", index + 1)
            if end < 0:
                out.append(re.escape(character))
            else:
                out.append("[" + pattern[index + 1:end].replace("!", "^", 1) + "]")
                index = end
        elif character == "{":
            out.append("(?:")
            depth += 1
        elif character == "}" and depth:
            out.append(")")
            depth -= 1
        elif character == "," and depth:
            out.append("|")
        else:
            out.append(re.escape(character))
        index += 1
    try:
        return re.compile("".join(out) + ")" * depth)
    except re.error:
        return re.compile(re.escape(pattern))


def file_quote(text: str) -> str:
    """The quote the file's strings mostly use, for the strings a codemod adds. All of
    its string tokens count (docstrings and other triple-quoted strings aside): a count
    of the first few thousand tree nodes was decided by `__all__ = ['A', 'B']` at the top
    of a file written in double quotes."""
    counts = {"'": 0, '"': 0}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING or token.type == getattr(
                    tokenize, "FSTRING_START", -1):
                body = token.string.lstrip("rRbBuUfF")
                if body[:3] not in ('"""', "'''") and body[:1] in counts:
                    counts[body[:1]] += 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return "'" if counts["'"] > counts['"'] else '"'
