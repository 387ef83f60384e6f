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
    by_line: dict[int, frozenset[str]] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return Suppressions()
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        match = _DIRECTIVE.search(token.string)
        if match is None:
            continue
        names = match.group("names")
        if names is None or not names.strip():
            by_line[token.start[0]] = ALL
        else:
            by_line[token.start[0]] = frozenset(
                name.strip() for name in names.split(",") if name.strip()
            )
    return Suppressions(by_line)
