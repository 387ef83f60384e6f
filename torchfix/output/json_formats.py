"""JSON for programs: one document (`json`) or one finding per line (`json-lines`).

The document's shape is versioned (`schema_version`); the README describes it. Positions
are 1-based, columns count characters, and an end position is just past the last
character. A finding's `fix` is null when there is no automatic fix; its `edits` are
given when the fix applies in this run (`applies`). `applied` appears only on findings
that `apply` wrote to a file.
"""

from __future__ import annotations

import json
from typing import Any

from torchfix import __version__
from torchfix.output.data import Finding, Report, Statistic

SCHEMA_VERSION = 2


def finding_object(report: Report, finding: Finding) -> dict[str, Any]:
    change = finding.change
    fix = None
    if change.safety.value != "manual":
        fix = {
            "applicability": change.safety.value,
            "applies": change.applied,
            "edits": [
                {
                    "content": edit.content,
                    "location": {"line": edit.line, "column": edit.column},
                    "end_location": {"line": edit.end_line, "column": edit.end_column},
                }
                for edit in finding.edits
            ],
        }
    entry: dict[str, Any] = {
        "path": report.shown(finding.path),
        "line": change.line,
        "column": change.column,
        "end_line": finding.end_line,
        "end_column": finding.end_column,
        "codemod": change.codemod,
        "code": change.code,
        "message": change.message,
        "safety": change.safety.value,
        "url": finding.url,
        "fix": fix,
    }
    if finding.written:
        entry["applied"] = True
    return entry


def document(report: Report) -> str:
    return json.dumps(
        {
            "schema_version": SCHEMA_VERSION,
            "torchfix": __version__,
            "command": report.command,
            "findings": [finding_object(report, finding) for finding in report.findings],
            "errors": [
                {"path": report.shown(p.path), "message": p.message, "internal": p.internal}
                for p in report.errors
            ],
            "warnings": [
                {"path": report.shown(w.path), "line": w.line, "column": w.column,
                 "message": w.message}
                for w in report.warnings
            ],
            "summary": report.summary.as_dict(),
        },
        indent=2,
    ) + "\n"


def lines(report: Report) -> str:
    """One finding object per line (errors and warnings go to stderr as text)."""
    return "".join(
        json.dumps(finding_object(report, finding)) + "\n" for finding in report.findings
    )


def statistics(rows: list[Statistic]) -> str:
    return json.dumps(
        [{"count": row.count, "codemod": row.codemod, "safety": row.safety,
          "fails": row.fails} for row in rows],
        indent=2,
    ) + "\n"
