"""The migration catalogue (`catalogue.toml`) as data: one `Entry` per old torch name.

The table is written for people; this module reads it (with tomllib: no dependency) and
checks its shape, so a typo in a row fails loudly at import, not silently at a use.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from torchfix.rewrite.contract import Safety

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

PATH = Path(__file__).with_name("catalogue.toml")
STATUSES = ("removed", "deprecated", "non-public")
FIXES = ("rename", "call", "module", "report", "cholesky", "qr", "chain_matmul", "range")
_FIELDS = frozenset({
    "name", "status", "replacement", "since", "fix", "safety", "note", "method", "import",
    "names", "positional", "keywords", "add_keywords", "handled_by", "verify", "probe",
    "trigger",
})

Version = tuple[int, int]


@dataclass(frozen=True)
class Entry:
    """One row of the catalogue."""

    name: str  # "torch.qr"
    status: str  # removed | deprecated | non-public
    replacement: str | None  # "torch.linalg.qr"
    since: Version | None  # the oldest torch with the replacement
    fix: str  # see FIXES; "" for rows handled by another codemod
    safety: Safety
    note: str
    method: bool
    imports: str | None  # a module the replacement needs imported
    names: tuple[str, ...]  # fix = "module": the names the new module has
    positional: int | None  # fix = "call": at most this many positional arguments
    keywords: frozenset[str] | None  # fix = "call": only these keywords
    add_keywords: tuple[tuple[str, str], ...]  # fix = "call": keywords to add
    handled_by: str | None
    verify: str
    probe: str
    trigger: str | None  # bytes every use contains, where the name alone is not the best

    @property
    def last(self) -> str:
        return self.name.rsplit(".", 1)[-1]

    @property
    def replacement_last(self) -> str:
        return (self.replacement or "").rsplit(".", 1)[-1]

    @property
    def since_text(self) -> str:
        return f"{self.since[0]}.{self.since[1]}" if self.since else ""


def _version(text: str, row: str) -> Version:
    try:
        major, minor = (int(part) for part in text.split("."))
    except ValueError:
        raise ValueError(f"{PATH.name}: {row}: since must look like '2.4', not {text!r}") from None
    return major, minor


def _entry(row: dict[str, Any]) -> Entry:
    name = row.get("name", "?")
    unknown = set(row) - _FIELDS
    if unknown:
        raise ValueError(f"{PATH.name}: {name}: unknown fields {sorted(unknown)}")
    if row.get("status") not in STATUSES:
        raise ValueError(f"{PATH.name}: {name}: status must be one of {STATUSES}")
    handled_by = row.get("handled_by")
    fix = row.get("fix", "")
    if handled_by is None and fix not in FIXES:
        raise ValueError(f"{PATH.name}: {name}: fix must be one of {FIXES}")
    if fix != "report" and handled_by is None and not row.get("replacement"):
        raise ValueError(f"{PATH.name}: {name}: a fix needs a replacement")
    keywords = row.get("keywords")
    return Entry(
        name=name,
        status=row["status"],
        replacement=row.get("replacement"),
        since=_version(row["since"], name) if "since" in row else None,
        fix=fix,
        safety=Safety(row.get("safety", "safe")),
        note=row.get("note", ""),
        method=bool(row.get("method", False)),
        imports=row.get("import"),
        names=tuple(row.get("names", ())),
        positional=row.get("positional"),
        keywords=frozenset(keywords) if keywords is not None else None,
        add_keywords=tuple(row.get("add_keywords", {}).items()),
        handled_by=handled_by,
        verify=row.get("verify", ""),
        probe=row.get("probe", ""),
        trigger=row.get("trigger"),
    )


@functools.cache
def entries() -> tuple[Entry, ...]:
    """Every row of the catalogue, in its order."""
    with PATH.open("rb") as handle:
        document = tomllib.load(handle)
    return tuple(_entry(row) for row in document.get("symbol", ()))


def of_status(*statuses: str) -> tuple[Entry, ...]:
    """The rows with these statuses that the deprecation codemods handle themselves."""
    return tuple(e for e in entries() if e.status in statuses and e.handled_by is None)


_FIX_WORDS = {"rename": "rename", "call": "call rewrite", "module": "module move",
              "report": "report", "cholesky": "call rewrite", "qr": "call rewrite",
              "chain_matmul": "call rewrite", "range": "call rewrite"}


def markdown() -> str:
    """The catalogue as the README shows it (`python -m codemods.deprecations.catalogue`)."""
    lines = ["| name | status | replacement | torch | handled by | fix |",
             "| --- | --- | --- | --- | --- | --- |"]
    codemods = {"removed": "removed-api", "deprecated": "deprecated-api",
                "non-public": "non-public-api"}
    for entry in entries():
        fix = _FIX_WORDS.get(entry.fix, "") if entry.handled_by is None else "call rewrite"
        if fix not in ("", "report") and entry.safety is Safety.UNSAFE:
            fix += " (unsafe)"
        lines.append(
            f"| `{entry.name}`{'()' if entry.method else ''} | {entry.status} | "
            f"{f'`{entry.replacement}`' if entry.replacement else ''} | {entry.since_text} | "
            f"{entry.handled_by or codemods[entry.status]} | {fix} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
