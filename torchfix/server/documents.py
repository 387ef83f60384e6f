"""torchfix on one open document: its findings and fixes, with its project's settings.

The editor holds the text; the file on disk may be older. Every document is checked as
the file at its path would be (`[tool.torchfix]` of its project, per-file ignores, the
project model rooted where `torchfix check` would root it), on the text the editor has.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from torchfix.engine.config import Config, ConfigError, find_config
from torchfix.engine.pipeline import RunOptions, project_root, resolve
from torchfix.engine.process import process_bytes
from torchfix.engine.results import EngineSettings, FileResult
from torchfix.engine.runner import on_parser_stack
from torchfix.model.project import Project
from torchfix.rewrite.changes import Change, Safety


@dataclass(frozen=True)
class Checked:
    """What torchfix says about a document's text."""

    changes: tuple[Change, ...]
    error: str | None = None  # why the text could not be checked (a syntax error, say)


@dataclass(frozen=True)
class _Settings:
    """What the server decides a document with: its configuration, settings and project."""

    config: Config
    settings: EngineSettings  # for `check` (no new text)
    project: Project


class Documents:
    """Settings per project, kept while the server runs (`forget()` after a save)."""

    def __init__(self) -> None:
        self._by_config: dict[Path | None, _Settings] = {}

    def forget(self) -> None:
        """Files or configuration may have changed on disk: read them again."""
        self._by_config.clear()

    def _settings_for(self, path: Path) -> _Settings:
        config_path = find_config(path.parent)
        if config_path not in self._by_config:
            settings, config = resolve([path], RunOptions(produce_output=False))
            root = project_root(config, [path])
            self._by_config[config_path] = _Settings(
                config, settings, Project(root, configured_min_torch=config.min_torch))
        return self._by_config[config_path]

    def check(self, path: Path, text: str) -> Checked:
        try:
            found = self._settings_for(path)
        except ConfigError as exc:
            return Checked((), str(exc))
        result = self._run(path, text, found, found.settings)
        if result.error is not None:
            return Checked((), result.error.message)
        return Checked(result.changes)

    def fix(self, path: Path, text: str, *, unsafe: bool = False,
            only: Change | None = None) -> str | None:
        """The text with the fixes made: every safe one (and unsafe ones with `unsafe`), or
        only the change `only`. None when nothing changes or the text cannot be fixed."""
        try:
            found = self._settings_for(path)
        except ConfigError:
            return None
        settings = replace(
            found.settings,
            produce_output=True,
            unsafe_fixes=found.settings.unsafe_fixes or unsafe
            or (only is not None and only.safety is Safety.UNSAFE),
            only=None if only is None else frozenset({(only.codemod, only.line, only.column)}),
        )
        if only is not None:
            settings = replace(settings, codemods=(only.codemod,))
        result = self._run(path, text, found, settings)
        if result.output is None:
            return None
        return result.output.decode(result.encoding)

    def _run(self, path: Path, text: str, found: _Settings,
             settings: EngineSettings) -> FileResult:
        ignored = found.config.ignored_for(path)
        if ignored:
            settings = replace(settings, codemods=tuple(
                name for name in settings.codemods if name not in ignored))
        if not settings.codemods:
            return FileResult(path)
        work = partial(process_bytes, text.encode("utf-8"), path, settings, explicit=True,
                       project=found.project)
        return on_parser_stack(work)
