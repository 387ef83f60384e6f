"""SARIF 2.1.0, the format GitHub code scanning (`github/codeql-action/upload-sarif`)
and other static-analysis dashboards ingest.

One run: the codemods as `tool.driver.rules` (summary, documentation and its link), one
result per finding with its rule, level, location relative to the project root
(`%SRCROOT%`) and, where the fix applies in this run, the fix's replacements. Files that
could not be processed and other warnings are the invocation's notifications.
"""

from __future__ import annotations

import inspect
import json
from typing import Any
from urllib.parse import quote

from torchfix import PROJECT_URL, __version__
from torchfix.output.data import Finding, Report
from torchfix.rewrite import registry

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
ROOT_ID = "%SRCROOT%"


def level(finding: Finding) -> str:
    """error: fails the check; warning: an unsafe fix not enabled, or one for a human."""
    return "error" if finding.fails else "warning"


def document(report: Report) -> str:
    codemods = registry.all_codemods()
    index = {codemod.name: position for position, codemod in enumerate(codemods)}
    rules = [
        {
            "id": codemod.name,
            "name": codemod.name,
            "shortDescription": {"text": codemod.summary},
            "fullDescription": {"text": codemod.summary},
            "help": {
                "text": inspect.getdoc(codemod) or codemod.summary,
                "markdown": inspect.getdoc(codemod) or codemod.summary,
            },
            "helpUri": registry.docs_url(codemod.name),
            "defaultConfiguration": {"level": "error"},
            "properties": {"fixes": codemod.fix_safety, "tags": ["pytorch", "torchfix"],
                           "codes": list(registry.codes_of(codemod))},
        }
        for codemod in codemods
    ]
    notifications = [
        _notification(report, "error", problem.message, problem.path)
        for problem in report.errors
    ] + [
        _notification(report, "warning", warning.message, warning.path, warning.line,
                      warning.column)
        for warning in report.warnings
    ]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "torchfix",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": PROJECT_URL,
                "rules": rules,
            }
        },
        "originalUriBaseIds": {ROOT_ID: {"uri": report.root.resolve().as_uri() + "/"}},
        "columnKind": "unicodeCodePoints",
        "invocations": [{
            "executionSuccessful": not report.errors,
            "toolExecutionNotifications": notifications,
        }],
        "results": [_result(report, finding, index) for finding in report.findings],
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"


def _result(report: Report, finding: Finding, index: dict[str, int]) -> dict[str, Any]:
    change = finding.change
    location = _artifact(report, finding.path)
    result: dict[str, Any] = {
        "ruleId": change.codemod,
        "level": level(finding),
        "message": {"text": change.message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": location,
                "region": {
                    "startLine": change.line,
                    "startColumn": change.column,
                    "endLine": finding.end_line,
                    "endColumn": finding.end_column,
                },
            }
        }],
        "properties": {"safety": change.safety.value, "fails": finding.fails},
    }
    if change.code is not None:
        result["properties"]["code"] = change.code
    if change.codemod in index:
        result["ruleIndex"] = index[change.codemod]
    if finding.edits:
        result["fixes"] = [{
            "description": {"text": f"{change.codemod}: {change.message}"},
            "artifactChanges": [{
                "artifactLocation": location,
                "replacements": [
                    {
                        "deletedRegion": {
                            "startLine": edit.line,
                            "startColumn": edit.column,
                            "endLine": edit.end_line,
                            "endColumn": edit.end_column,
                        },
                        "insertedContent": {"text": edit.content},
                    }
                    for edit in finding.edits
                ],
            }],
        }]
    return result


def _artifact(report: Report, path: Any) -> dict[str, str]:
    return {"uri": quote(report.relative(path)), "uriBaseId": ROOT_ID}


def _notification(report: Report, kind: str, message: str, path: Any, line: int | None = None,
                  column: int | None = None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": _artifact(report, path)}
    if line is not None:
        physical["region"] = {"startLine": line, "startColumn": column or 1}
    return {"level": kind, "message": {"text": message},
            "locations": [{"physicalLocation": physical}]}
