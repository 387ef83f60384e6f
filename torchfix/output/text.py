"""The formats people read: full (one line per finding), concise (with the colon after
the column that editors' error formats and CI problem matchers expect), grouped (by
file), and the --statistics table.

By default they list the findings that fail the check; `show_all` adds the others, each
with a note saying why it does not fail.
"""

from __future__ import annotations

from torchfix.output.data import Finding, Report, Statistic


def _shown(report: Report, show_all: bool) -> list[Finding]:
    return report.findings if show_all else report.failing


def _tail(finding: Finding) -> str:
    note = finding.note
    return f"{finding.change.message} {note}" if note else finding.change.message


def full(report: Report, show_all: bool = False) -> str:
    """`path:line:col name message`, torchfix's own line since its first version."""
    return "".join(
        f"{report.shown(f.path)}:{f.change.line}:{f.change.column} {f.change.codemod} "
        f"{_tail(f)}\n"
        for f in _shown(report, show_all)
    )


def concise(report: Report, show_all: bool = False) -> str:
    """`path:line:col: name message`, as gcc, ruff and editors' error formats write it."""
    return "".join(
        f"{report.shown(f.path)}:{f.change.line}:{f.change.column}: {f.change.codemod} "
        f"{_tail(f)}\n"
        for f in _shown(report, show_all)
    )


def grouped(report: Report, show_all: bool = False) -> str:
    """A heading per file, then `line:col name message` aligned under it."""
    by_file: dict[str, list[Finding]] = {}
    for finding in _shown(report, show_all):
        by_file.setdefault(report.shown(finding.path), []).append(finding)
    out: list[str] = []
    for path, findings in by_file.items():
        out.append(f"{path}:\n")
        places = [f"{f.change.line}:{f.change.column}" for f in findings]
        place_width = max(len(place) for place in places)
        name_width = max(len(f.change.codemod) for f in findings)
        for place, finding in zip(places, findings, strict=True):
            out.append(f"  {place:<{place_width}}  {finding.change.codemod:<{name_width}}  "
                       f"{_tail(finding)}\n")
        out.append("\n")
    return "".join(out)


def statistics(rows: list[Statistic]) -> str:
    """`count codemod safety` per row, and `fails` on the rows that fail the check."""
    if not rows:
        return ""
    count_width = max(len(str(row.count)) for row in rows)
    name_width = max(len(row.codemod) for row in rows)
    return "".join(
        f"{row.count:>{count_width}}  {row.codemod:<{name_width}}  {row.safety}"
        f"{'  fails' if row.fails else ''}\n"
        for row in rows
    )
