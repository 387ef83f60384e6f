"""The Python API, for tools that embed torchfix (editors, review bots, notebooks).

    import torchfix

    for finding in torchfix.check_source(code).findings:
        print(finding.line, finding.codemod, finding.message)
    fixed = torchfix.fix_source(code)
    if fixed.changed:
        new_code = fixed.output

    report = torchfix.check_paths(["src/"])   # configuration from pyproject.toml

Strings are checked and fixed as they are: no configuration file is read, and nothing is
written or cached. `check_paths` runs like `torchfix check` (configuration, discovery,
cache off unless asked). Unknown codemod names or options raise `ValueError`; a string
that cannot be parsed raises `SourceError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from torchfix.engine.config import ConfigError, validate_options
from torchfix.engine.pipeline import RunOptions, run
from torchfix.engine.process import process_bytes
from torchfix.engine.results import EngineSettings, FileResult
from torchfix.rewrite import registry
from torchfix.rewrite.changes import Change

__all__ = ["CheckResult", "FileProblem", "Finding", "FixResult", "SourceError", "check_paths",
           "check_source", "fix_source"]


class SourceError(ValueError):
    """The source string cannot be processed (a syntax error, say); the message says why."""


@dataclass(frozen=True)
class Finding:
    """One change a codemod makes (or would make), or a finding for a human."""

    codemod: str
    message: str
    line: int  # 1-based
    column: int  # 1-based, in characters
    end_line: int
    end_column: int  # just past the last character
    safety: str  # "safe", "unsafe" or "manual" (no automatic fix)
    applies: bool  # the fix is applied with these settings (check fails on it)
    path: Path | None = None  # None for a source string
    url: str = ""  # the codemod's documentation

    @classmethod
    def of(cls, change: Change, path: Path | None) -> Finding:
        return cls(change.codemod, change.message, change.line, change.column,
                   change.end_line or change.line, change.end_column or change.column,
                   change.safety.value, change.applied, path, registry.docs_url(change.codemod))


@dataclass(frozen=True)
class FileProblem:
    """A file that could not be processed, and why."""

    path: Path
    message: str


@dataclass(frozen=True)
class CheckResult:
    """What `check_source` and `check_paths` found: the findings and the files that failed."""

    findings: tuple[Finding, ...]
    errors: tuple[FileProblem, ...] = ()

    @property
    def failed(self) -> bool:
        """What `torchfix check` exits 1 for: a fix that applies, or a file in error."""
        return bool(self.errors) or any(finding.applies for finding in self.findings)


@dataclass(frozen=True)
class FixResult:
    """What `fix_source` made of a source: the new text and the findings behind it."""

    source: str
    output: str  # the new text (the source itself when nothing changes)
    findings: tuple[Finding, ...]  # `applies` marks the changes made
    # Files the output needs created (absolute path, text), e.g. atomic-save's package
    # helper with `helper = "module"`; `torchfix apply` creates them, this does not.
    new_files: tuple[tuple[Path, str], ...] = ()

    @property
    def changed(self) -> bool:
        return self.output != self.source


def check_source(
    source: str,
    *,
    path: str | PathLike[str] = "module.py",
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
    unsafe_fixes: bool = False,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> CheckResult:
    """The findings for a module's source. `path` is the file name the codemods see
    (some leave test files alone); `select`/`ignore`/`options` as in `[tool.torchfix]`."""
    result = _process(source, path, select, ignore, unsafe_fixes, options, output=False)
    return CheckResult(tuple(Finding.of(change, None) for change in _sorted(result)))


def fix_source(
    source: str,
    *,
    path: str | PathLike[str] = "module.py",
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
    unsafe_fixes: bool = False,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> FixResult:
    """The source with the fixes applied (safe ones; unsafe ones too with
    `unsafe_fixes`), verified as `torchfix apply` verifies it, and its changes."""
    result = _process(source, path, select, ignore, unsafe_fixes, options, output=True)
    rewrite = result.rewrite()
    output = rewrite[1].decode(result.encoding) if rewrite is not None else source
    if rewrite is not None and source.startswith("\ufeff") and not output.startswith("\ufeff"):
        output = "\ufeff" + output
    return FixResult(source, output, tuple(Finding.of(c, None) for c in _sorted(result)),
                     tuple((new.path, new.data.decode("utf-8")) for new in result.creates))


def check_paths(
    paths: Sequence[str | PathLike[str]],
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
    unsafe_fixes: bool | None = None,
    config: str | PathLike[str] | None = None,
    jobs: int | None = None,
    cache: bool = False,
) -> CheckResult:
    """`torchfix check PATHS` without the printing: files and folders, the nearest
    `[tool.torchfix]` (or `config`), .gitignore and excludes, per-file-ignores."""
    options = RunOptions(
        select=list(select) if select is not None else None,
        ignore=list(ignore),
        unsafe_fixes=unsafe_fixes,
        config=Path(config) if config is not None else None,
        jobs=jobs,
        use_cache=cache,
        produce_output=False,
    )
    try:
        outcome = run([Path(path) for path in paths], options)
    except ConfigError as exc:
        raise ValueError(str(exc)) from exc
    findings = tuple(Finding.of(change, result.path)
                     for result in outcome.results for change in _sorted(result))
    errors = [FileProblem(Path(path), message) for path, message in outcome.discovery.errors]
    errors += [FileProblem(result.path, result.error.message)
               for result in outcome.results if result.error is not None]
    return CheckResult(findings, tuple(errors))


def _process(
    source: str,
    path: str | PathLike[str],
    select: Iterable[str] | None,
    ignore: Iterable[str],
    unsafe_fixes: bool,
    options: Mapping[str, Mapping[str, Any]] | None,
    output: bool,
) -> FileResult:
    try:
        codemods = registry.select(list(select) if select is not None else None, list(ignore))
        checked = {
            name: validate_options(Path("<options>"), registry.get(name), values)
            for name, values in (options or {}).items()
        }
    except (registry.UnknownCodemodError, ConfigError) as exc:
        raise ValueError(str(exc)) from exc
    settings = EngineSettings(codemods=tuple(c.name for c in codemods), unsafe_fixes=unsafe_fixes,
                              options=checked, produce_output=output)
    data = source.encode("utf-8")
    result = process_bytes(data, Path(path), settings, explicit=True)
    if result.error is not None:
        raise SourceError(result.error.message)
    return result


def _sorted(result: FileResult) -> list[Change]:
    return sorted(result.changes, key=lambda c: (c.line, c.column, c.codemod))
