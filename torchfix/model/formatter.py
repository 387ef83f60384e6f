"""How a project's formatter and linter want new code written: line length, quotes, and
the lint rules that ask for a particular shape of code (ruff's `EM101`, `SIM102`, ...).

Read at the project root, in ruff's order: `.ruff.toml`, `ruff.toml` (top-level keys),
then `pyproject.toml` (`[tool.ruff]`, else `[tool.black]`). Quote style: ruff's
`[format] quote-style` ("single"/"double"; "preserve" says nothing), or black's
`skip-string-normalization` (false: double quotes); None when nothing says, and the code
then follows the file's own majority. Rules: `[lint] select`/`extend-select` (also the
older top-level keys), less `ignore`/`extend-ignore` and the `per-file-ignores` whose
pattern matches the file, by prefix (`"EM"` and `"ALL"` select `EM101`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from torchfix.model.line_length import _toml, find_line_length


@dataclass(frozen=True)
class FormatterSettings:
    line_length: int | None = None
    quote: str | None = None  # '"' or "'" when the configuration fixes one
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def enables(self, rule: str, path: str | None = None) -> bool:
        """Whether the lint rule `rule` (`"EM101"`) is enabled for the file at `path`
        (relative to the project root, `/`-separated; None: any file)."""
        if not any(_covers(code, rule) for code in self.select):
            return False
        if any(_covers(code, rule) for code in self.ignore):
            return False
        if path is not None:
            for pattern, codes in self.per_file_ignores:
                if any(_covers(code, rule) for code in codes) and _matches(pattern, path):
                    return False
        return True


def find_formatter_settings(root: Path) -> FormatterSettings:
    line_length = find_line_length(root)
    ruff: dict[str, Any] | None = None
    black: dict[str, Any] | None = None
    for name in (".ruff.toml", "ruff.toml"):
        ruff = _toml(root / name)
        if ruff is not None:
            break
    if ruff is None:
        tool = (_toml(root / "pyproject.toml") or {}).get("tool")
        if isinstance(tool, dict):
            ruff = _table(tool.get("ruff"))
            black = _table(tool.get("black"))
    quote: str | None = None
    select: list[str] = []
    ignore: list[str] = []
    per_file: list[tuple[str, tuple[str, ...]]] = []
    if ruff is not None:
        style = _table(ruff.get("format")).get("quote-style")
        quote = {"double": '"', "single": "'"}.get(style) if isinstance(style, str) else None
        for table in (ruff, _table(ruff.get("lint"))):
            select += _codes(table.get("select")) + _codes(table.get("extend-select"))
            ignore += _codes(table.get("ignore")) + _codes(table.get("extend-ignore"))
            for key in ("per-file-ignores", "extend-per-file-ignores"):
                for pattern, codes in _table(table.get(key)).items():
                    per_file.append((str(pattern), tuple(_codes(codes))))
    elif black is not None:
        skip = black.get("skip-string-normalization", black.get("skip_string_normalization"))
        quote = None if skip else '"'
    return FormatterSettings(line_length, quote, tuple(select), tuple(ignore), tuple(per_file))


def _table(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


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
