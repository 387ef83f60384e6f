"""CI systems' own formats: GitHub workflow commands (annotations on the pull request)
and GitLab code-quality reports (the merge request widget).

Files are named relative to the project root, which is where both systems resolve them
from (the repository's checkout).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from torchfix.output.data import Finding, Report


def _data(text: str) -> str:
    # As GitHub's toolkit escapes a command's message.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _command(kind: str, message: str, **properties: object) -> str:
    fields = ",".join(f"{key}={_property(str(value))}" for key, value in properties.items()
                      if value is not None)
    return f"::{kind} {fields}::{_data(message)}\n"


def github(report: Report, show_all: bool = False) -> str:
    """`::error file=...,line=...,col=...,title=...::message`: findings that fail the check
    are errors; with `show_all` the others are warnings. Files that could not be processed
    are errors, warnings (a typo in a suppression comment) warnings."""
    out: list[str] = []
    for finding in report.findings if show_all else report.failing:
        change = finding.change
        message = f"{change.message} {finding.note}" if finding.note else change.message
        out.append(_command(
            "error" if finding.fails else "warning", message,
            file=report.relative(finding.path), line=change.line, endLine=finding.end_line,
            col=change.column, endColumn=finding.end_column,
            title=f"torchfix ({_named(change.codemod, change.code)})",
        ))
    for problem in report.errors:
        out.append(_command("error", problem.message, file=report.relative(problem.path),
                            title="torchfix"))
    for warning in report.warnings:
        out.append(_command("warning", warning.message, file=report.relative(warning.path),
                            line=warning.line, col=warning.column, title="torchfix"))
    return "".join(out)


def _named(codemod: str, code: str | None) -> str:
    """The codemod, with its TorchFix code where the finding has one ("load-weights-only
    TOR102"), so a TorchFix user finds the code they know."""
    return f"{codemod} {code}" if code else codemod


def _severity(finding: Finding) -> str:
    return "major" if finding.fails else "minor"


def gitlab(report: Report) -> str:
    """GitLab's code-quality JSON: every finding, with a fingerprint that stays the same
    when unrelated lines move (path, codemod, message and the how-manieth such finding)."""
    seen: Counter[tuple[str, str, str]] = Counter()
    issues: list[dict[str, Any]] = []
    for finding in report.findings:
        change = finding.change
        path = report.relative(finding.path)
        key = (path, change.codemod, change.message)
        seen[key] += 1
        fingerprint = hashlib.sha256(
            "\0".join([*key, str(seen[key])]).encode("utf-8", "surrogateescape")
        ).hexdigest()[:32]
        issues.append({
            "description": f"{_named(change.codemod, change.code)}: {change.message}",
            "check_name": change.codemod,
            "fingerprint": fingerprint,
            "severity": _severity(finding),
            "location": {"path": path,
                         "lines": {"begin": change.line, "end": finding.end_line}},
            "content": {"body": f"[{change.codemod}]({finding.url})"},
        })
    return json.dumps(issues, indent=2) + "\n"
