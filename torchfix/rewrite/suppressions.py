"""Suppression comments: `# torchfix: ignore`, `# torchfix: ignore[name, ...]` and, for
the rules that carry TorchFix codes, flake8's `# noqa` and `# noqa: TOR102, ...`.

A comment applies to the line it is on. A change is suppressed when such a comment sits on
the first or the last line of the code it would edit, so both of these work:

    model.load_state_dict(sd)  # torchfix: ignore[strict-load-state-dict]
    model.load_state_dict(
        sd,
    )  # torchfix: ignore

Names in `ignore[...]` are codemod names or TorchFix codes. `# noqa` comments are read
the way flake8 read them for TorchFix: a code suppresses every rule whose code starts
with it (`TOR1` the TOR1xx rules), codes of other tools (`E501`) are passed over, and a
bare `# noqa` suppresses every rule that has a TorchFix code, never torchfix's own rules
(a `# noqa` written for another linter must not silence them).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Collection
from dataclasses import dataclass, field

# A `# torchfix:` comment (a docstring or string that names torchfix is not one).
_MARKER_BYTES = re.compile(rb"#[ \t\f\v]*torchfix:")
# A noqa comment that may concern a TorchFix code: bare, or naming a TOR code on its line.
_NOQA_BYTES = re.compile(rb"#\s*(?i:noqa)(?:(?!\s*:)|\s*:[^\n]*TOR)")
_DIRECTIVE = re.compile(r"#\s*torchfix:\s*ignore\b(?:\[(?P<names>[^\]]*)\])?")
# flake8's form: bare noqa, or noqa followed by a colon and codes (`E501,TOR102`).
_NOQA = re.compile(r"#\s*noqa\b(?::\s?(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?",
                   re.IGNORECASE)
ALL = frozenset({"*"})


def may_suppress(data: bytes) -> bool:
    """Whether the file's bytes may hold a suppression comment (a cheap first look)."""
    return may_hold_directive(data) or _NOQA_BYTES.search(data) is not None


def may_hold_directive(data: bytes) -> bool:
    """Whether the file's bytes may hold a `# torchfix: ...` comment (a cheap first look)."""
    return b"torchfix:" in data and _MARKER_BYTES.search(data) is not None


@dataclass(frozen=True)
class Suppressions:
    """Line number → codemod names suppressed there (`ALL` for every codemod)."""

    by_line: dict[int, frozenset[str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.by_line)

    def suppresses(self, codemod: str, first_line: int, last_line: int) -> bool:
        for line in {first_line, last_line}:
            names = self.by_line.get(line)
            if names is not None and (names is ALL or codemod in names):
                return True
        return False


def find_suppressions(text: str) -> Suppressions:
    """Collect suppression comments from real comment tokens (never from strings).

    TorchFix codes are resolved to the names of the codemods they stand for.
    """
    by_line: dict[int, frozenset[str]] = {}
    for line, _column, names in _directives(text, noqa=True):
        if names is not ALL:
            names = _resolved(names)
        previous = by_line.get(line)
        if previous is not None:
            names = ALL if ALL in (previous, names) else previous | names
        by_line[line] = names
    return Suppressions(by_line)


def _resolved(names: frozenset[str]) -> frozenset[str]:
    from torchfix.rewrite.registry import expand

    resolved = set()
    for name in names:
        expanded = expand(name)
        resolved.update(expanded if expanded else [name])
    return frozenset(resolved)


def unknown_names(data: bytes, known: Collection[str]) -> list[tuple[int, int, str]]:
    """(line, column, name) of each name in a suppression comment of the file's bytes
    that is not in `known`; the column (1-based) is where the comment starts."""
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
        text = data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return []  # the run reports files it cannot decode
    return [
        (line, column, name)
        for line, column, names in _directives(text)
        if names is not ALL
        for name in sorted(names)
        if name not in known
    ]


def _directives(text: str, noqa: bool = False) -> list[tuple[int, int, frozenset[str]]]:
    """(line, 1-based column, names or ALL) of every suppression comment; with `noqa`,
    flake8's comments too (their codes, or every TorchFix code for a bare `# noqa`)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    found: list[tuple[int, int, frozenset[str]]] = []
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        if noqa:
            codes = _noqa_codes(token.string)
            if codes:
                found.append((token.start[0], token.start[1] + 1, codes))
        match = _DIRECTIVE.search(token.string)
        if match is None:
            continue
        names = match.group("names")
        if names is None or not names.strip():
            found.append((token.start[0], token.start[1] + 1, ALL))
        else:
            found.append((token.start[0], token.start[1] + 1, frozenset(
                name.strip() for name in names.split(",") if name.strip()
            )))
    return found


def _noqa_codes(comment: str) -> frozenset[str]:
    """The TorchFix codes a `# noqa` comment names: those listed, or for a bare `# noqa`
    every code a codemod carries; empty when it names only other tools' codes."""
    match = _NOQA.search(comment)
    if match is None:
        return frozenset()
    from torchfix.rewrite.registry import entries, entries_by_code

    listed = match.group("codes")
    if listed is None:
        return frozenset(code for entry in entries() for code in entry.codes)
    return frozenset(code for code in re.split(r"[,\s]+", listed.strip())
                     if code and entries_by_code(code))
