"""One run from the user's point of view: options + config → discovery → engine results.

The CLI and the git integration both go through `run()`; neither prints anything here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from torchfix import registry
from torchfix.cache import ResultCache
from torchfix.config import MB, Config, ConfigError, find_config, load_config
from torchfix.diffs import git_root
from torchfix.discovery import Discovery, discover
from torchfix.engine import EngineSettings, FileResult
from torchfix.runner import run_files


@dataclass(frozen=True)
class RunOptions:
    """What was asked on the command line; None means "not given, use the config"."""

    select: Sequence[str] | None = None
    ignore: Sequence[str] = ()
    exclude: Sequence[str] = ()
    unsafe_fixes: bool | None = None
    include_generated: bool | None = None
    config: Path | None = None
    jobs: int | None = None
    use_cache: bool = True
    produce_output: bool = True  # False when only findings are wanted (check)
    # Batch runs: never read a pyproject.toml above this folder (the repository root), so
    # one repository does not pick up the configuration of the folder it was cloned into.
    config_root: Path | None = None
    # Where --exclude patterns are anchored (default: the current folder).
    exclude_root: Path | None = None


@dataclass
class RunOutcome:
    settings: EngineSettings
    config: Config
    discovery: Discovery
    # The one base of the run: patch paths are relative to it, its run record lives in it.
    root: Path = field(default_factory=Path.cwd)
    results: list[FileResult] = field(default_factory=list)
    seconds: float = 0.0


def resolve(paths: Sequence[Path], options: RunOptions) -> tuple[EngineSettings, Config]:
    """Merge the configuration file with the command line (which wins)."""
    config_path = options.config
    if config_path is not None and not config_path.is_file():
        raise ConfigError(f"{config_path}: configuration file not found")
    if config_path is None:
        config_path = find_config(_common_folder(paths), stop=options.config_root)
    config = load_config(config_path)

    selected = options.select if options.select is not None else config.select
    # A codemod named in --select on the command line is not dropped by the config's ignore.
    cli_selected = set(options.select or ())
    ignored = [name for name in config.ignore if name not in cli_selected]
    ignored += list(options.ignore)
    try:
        codemods = registry.select(selected, ignored)
    except registry.UnknownCodemodError as exc:
        raise ConfigError(str(exc)) from exc
    unsafe = config.unsafe_fixes if options.unsafe_fixes is None else options.unsafe_fixes
    include_generated = (
        config.include_generated if options.include_generated is None
        else options.include_generated
    )
    settings = EngineSettings(
        codemods=tuple(codemod.name for codemod in codemods),
        unsafe_fixes=unsafe,
        options={name: dict(values) for name, values in config.options.items()},
        skip_generated=not include_generated,
        produce_output=options.produce_output,
        max_file_bytes=round(config.max_file_size * MB),
    )
    return settings, config


def run(
    paths: Sequence[Path],
    options: RunOptions,
    on_discovered: Callable[[int], None] | None = None,
    on_result: Callable[[FileResult], None] | None = None,
) -> RunOutcome:
    started = time.perf_counter()
    settings, config = resolve(paths, options)
    found = discover(
        paths,
        excludes=[
            (config.root, config.exclude),
            (options.exclude_root or Path.cwd(), tuple(options.exclude)),
        ],
    )
    if on_discovered is not None:
        on_discovered(len(found.files))
    outcome = RunOutcome(settings, config, found, project_root(config, paths))
    cache = ResultCache.at(cache_root(config, paths), settings) if options.use_cache else None
    if settings.codemods:
        for result in run_files(found.files, settings, options.jobs, cache):
            outcome.results.append(result)
            if on_result is not None:
                on_result(result)
    outcome.seconds = time.perf_counter() - started
    return outcome


def cache_root(config: Config, paths: Sequence[Path]) -> Path:
    """Where the result cache lives: the project root (config file, else git), else here."""
    if config.path is not None:
        return config.root
    return git_root(_common_folder(paths).resolve()) or Path.cwd()


def project_root(config: Config, paths: Sequence[Path]) -> Path:
    """The base of a run: the git root of the targets' common folder; outside git, the
    folder of the configuration file when it holds every target; else that common folder.

    Patch paths (`torchfix diff`, `apply --dry-run`, the run record) are relative to it,
    so a patch applies there with `git apply` or `patch -p1`; the run record lives in it
    (`.torchfix/runs`). `torchfix undo` finds it again from any folder inside it.

    The root is looked for above the paths as given, before their symlinks are resolved:
    `linkdir/x.py` with `linkdir -> ../elsewhere` belongs to this project, and writing
    it is refused (its real path is outside), rather than making `../elsewhere` the root.
    """
    folder = _common_folder(paths)
    root = git_root(folder) or git_root(folder.resolve())
    if root is not None:
        return root.resolve()
    if config.path is not None and (
        folder.is_relative_to(os.path.abspath(config.path.parent))
        or folder.resolve().is_relative_to(config.root)
    ):
        return config.root
    return folder.resolve()


def _common_folder(paths: Sequence[Path]) -> Path:
    if not paths:
        return Path.cwd()
    absolute = [os.path.abspath(path) for path in paths]
    try:
        common = Path(os.path.commonpath(absolute))
    except ValueError:  # different drives
        return Path.cwd()
    return common if common.is_dir() else common.parent
