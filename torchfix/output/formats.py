"""The output formats' names and families (no renderer is imported here)."""

from __future__ import annotations

from enum import Enum


class OutputFormat(str, Enum):
    full = "full"
    concise = "concise"
    grouped = "grouped"
    json = "json"
    json_lines = "json-lines"
    sarif = "sarif"
    github = "github"
    gitlab = "gitlab"
    junit = "junit"
    text = "text"  # the name `--format` used before there were more: full


# The formats people read in a terminal: the summary and errors go to stderr beside them.
TEXT_FORMATS = frozenset({OutputFormat.full, OutputFormat.concise, OutputFormat.grouped})
# The formats that carry the fixes' edits, which takes the new text of every file.
FIX_FORMATS = frozenset({OutputFormat.json, OutputFormat.json_lines, OutputFormat.sarif})
# The formats that hold errors and warnings in their own output (the others print them on
# stderr).
SELF_CONTAINED = frozenset(
    {OutputFormat.json, OutputFormat.sarif, OutputFormat.github, OutputFormat.junit}
)


def canonical(output_format: OutputFormat) -> OutputFormat:
    return OutputFormat.full if output_format is OutputFormat.text else output_format
