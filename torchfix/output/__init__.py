"""Renderers: each output format turns a `Report` (plain data) into text.

    text.py          full, concise, grouped, and the --statistics table
    json_formats.py  json, json-lines
    sarif.py         SARIF 2.1.0 (GitHub code scanning)
    ci.py            GitHub workflow commands, GitLab code quality
    junit.py         JUnit XML
    formats.py       the formats' names (what the command line needs at startup)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from torchfix.output.formats import (
    FIX_FORMATS,
    SELF_CONTAINED,
    TEXT_FORMATS,
    OutputFormat,
    canonical,
)

if TYPE_CHECKING:
    from torchfix.output.data import Report


def render(report: Report, output_format: OutputFormat, show_all: bool = False) -> str:
    """The whole output of a run in this format (stdout)."""
    output_format = canonical(output_format)
    if output_format in TEXT_FORMATS:
        if not report.findings:  # they list findings only: nothing to load the module for
            return ""
        from torchfix.output import text

        renderer = getattr(text, output_format.value)
        return renderer(report, show_all)
    if output_format is OutputFormat.json:
        from torchfix.output import json_formats

        return json_formats.document(report)
    if output_format is OutputFormat.json_lines:
        from torchfix.output import json_formats

        return json_formats.lines(report)
    if output_format is OutputFormat.sarif:
        from torchfix.output import sarif

        return sarif.document(report)
    if output_format is OutputFormat.github:
        from torchfix.output import ci

        return ci.github(report, show_all)
    if output_format is OutputFormat.gitlab:
        from torchfix.output import ci

        return ci.gitlab(report)
    from torchfix.output import junit

    return junit.document(report, show_all)


def render_statistics(report: Report, output_format: OutputFormat) -> str:
    """--statistics: JSON for json/json-lines, else the text table."""
    from torchfix.output.data import statistics

    rows = statistics(report)
    if output_format in (OutputFormat.json, OutputFormat.json_lines):
        from torchfix.output import json_formats

        return json_formats.statistics(rows)
    from torchfix.output import text

    return text.statistics(rows)


__all__ = ["FIX_FORMATS", "SELF_CONTAINED", "TEXT_FORMATS", "OutputFormat", "canonical",
           "render", "render_statistics"]
