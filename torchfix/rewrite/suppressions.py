"""Suppression comments: `# torchfix: ignore` and `# torchfix: ignore[name, ...]`.

A comment applies to the line it is on. A change is suppressed when such a comment sits on
the first or the last line of the code it would edit, so both of these work:

    model.load_state_dict(sd)  # torchfix: ignore[strict-load-state-dict]
    model.load_state_dict(
        sd,
    )  # torchfix: ignore
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Collection
from dataclasses import dataclass, field

MARKER = b"torchfix:"
_DIRECTIVE = re.compile(r"#\s*torchfix:\s*ignore\b(?:\[(?P<names>[^\]]*)\])?")
ALL = frozenset({"*"})


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
    """Collect suppression comments from real comment tokens (never from strings)."""
    return Suppressions({line: names for line, _column, names in _directives(text)})


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


def _directives(text: str) -> list[tuple[int, int, frozenset[str]]]:
    """(line, 1-based column, names or ALL) of every suppression comment."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    found: list[tuple[int, int, frozenset[str]]] = []
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
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
