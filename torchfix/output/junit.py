"""JUnit XML, which most CI systems show as test results: a test suite per file, a
failing test case per finding that fails the check, an erroring one per file that could
not be processed. With `show_all` the other findings are skipped test cases with the
reason. A run with nothing to report is one passing test case, so the report is never
empty."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from torchfix.output.data import Report


def document(report: Report, show_all: bool = False) -> str:
    root = ElementTree.Element("testsuites", name=f"torchfix {report.command}")
    suites: dict[str, ElementTree.Element] = {}

    def suite(path: str) -> ElementTree.Element:
        if path not in suites:
            suites[path] = ElementTree.SubElement(root, "testsuite", name=path)
        return suites[path]

    for finding in report.findings if show_all else report.failing:
        change = finding.change
        path = report.shown(finding.path)
        case = ElementTree.SubElement(
            suite(path), "testcase", name=f"{change.codemod} at {change.line}:{change.column}",
            classname=path, file=path, line=str(change.line),
        )
        detail = (f"{path}:{change.line}:{change.column}: {change.codemod} {change.message}\n"
                  f"{finding.url}")
        if finding.fails:
            failure = ElementTree.SubElement(case, "failure", type=change.codemod,
                                             message=change.message)
            failure.text = detail
        else:
            ElementTree.SubElement(case, "skipped", message=f"{change.message} {finding.note}")
    for problem in report.errors:
        path = report.shown(problem.path)
        case = ElementTree.SubElement(suite(path), "testcase", name=path, classname=path,
                                      file=path)
        ElementTree.SubElement(case, "error", message=problem.message)
    if not suites:
        ElementTree.SubElement(
            ElementTree.SubElement(root, "testsuite", name="torchfix"),
            "testcase", name=f"torchfix {report.command}", classname="torchfix",
        )
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for element in root:
        counts = {
            "tests": len(element.findall("testcase")),
            "failures": len(element.findall("testcase/failure")),
            "errors": len(element.findall("testcase/error")),
            "skipped": len(element.findall("testcase/skipped")),
        }
        for key, value in counts.items():
            element.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ElementTree.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ElementTree.tostring(root, encoding="unicode") + "\n")
