"""One run from the user's point of view: options + config → discovery → engine results.

The CLI and the git integration both go through `run()`; neither prints anything here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from torchfix.engine.config import MB, Config, ConfigError, find_config, load_config
from torchfix.engine.discovery import Discovery, SourceFile, discover, git_root, is_excluded
from torchfix.engine.process import process_bytes, unimportable_warning
from torchfix.engine.results import EngineSettings, FileError, FileResult
from torchfix.engine.runner import on_parser_stack, run_files
from torchfix.model.project import Project
from torchfix.rewrite import registry


@dataclass(frozen=True)
class RunOptions:
    """What was asked on the command line; None means "not given, use the config"."""

    select: Sequence[str] | None = None
    extend_select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    exclude: Sequence[str] = ()
    unsafe_fixes: bool | None = None
    include_generated: bool | None = None
    config: Path | None = None
    jobs: int | None = None
    use_cache: bool = True
    produce_output: bool = True  # False when only findings are wanted (check)
    # Each change's own edits, for the formats that carry a fix per finding (check's json,
    # json-lines, sarif): `apply` and the text formats need the new file only.
    fix_edits: bool = False
    # Batch runs: never read a pyproject.toml above this folder (the repository root), so
    # one repository does not pick up the configuration of the folder it was cloned into.
    config_root: Path | None = None
    # Where --exclude patterns are anchored (default: the current folder).
    exclude_root: Path | None = None


@dataclass(eq=False)  # one run's record, the same only as itself
class RunOutcome:
    """What one run found: its settings, its files and a result for each."""

    settings: EngineSettings
    config: Config
    discovery: Discovery
    # The one base of the run: patch paths are relative to it, its run record lives in it.
    root: Path = field(default_factory=Path.cwd)
    results: list[FileResult] = field(default_factory=list)
    seconds: float = 0.0
    # (path, line, column, message): unknown codemod names in suppression comments.
    warnings: list[tuple[Path, int, int, str]] = field(default_factory=list)


def resolve(paths: Sequence[Path], options: RunOptions) -> tuple[EngineSettings, Config]:
    """Merge the configuration file with the command line (which wins)."""
    config_path = options.config
    if config_path is not None and not config_path.is_file():
        raise ConfigError(f"{config_path}: configuration file not found")
    if config_path is None:
        config_path = find_config(_common_folder(paths), stop=options.config_root)
    config = load_config(config_path)

    # As in ruff, --select on the command line replaces the configuration's select and
    # extend-select; --extend-select adds to whichever selection stands.
    if options.select is not None:
        base: Sequence[str] | None = options.select
        extended = list(options.extend_select)
    else:
        base = config.select
        extended = [*config.extend_select, *options.extend_select]
    # A codemod named on the command line is not dropped by the config's ignore.
    cli_selected = {*(options.select or ()), *options.extend_select}
    ignored = [name for name in config.ignore if name not in cli_selected]
    ignored += list(options.ignore)
    try:
        chosen = set(registry.select_names(base))
        chosen |= set(registry.select_names(extended)) if extended else set()
        dropped = set(registry.select_names(ignored)) if ignored else set()
    except registry.UnknownCodemodError as exc:
        raise ConfigError(str(exc)) from exc
    codemods = [c for c in registry.entries() if c.name in chosen - dropped]
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
        fix_edits=options.fix_edits,
        max_file_bytes=round(config.max_file_size * MB),
    )
    return settings, config


# A run over this many files stamps the project before it starts, so that the project
# facts it works out are remembered for the next run; a pre-commit hook or an editor
# checking a few files does not walk the whole tree for that.
_STAMPED_RUN_FILES = 20


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
    project = Project(outcome.root, configured_min_torch=config.min_torch,
                      codemod_loader=registry.load)
    # per-file-ignores: the files that run the same codemods are run together.
    groups: dict[tuple[str, ...], list[int]] = {}
    for index, source in enumerate(found.files):
        ignored = config.ignored_for(source.path)
        codemods = tuple(name for name in settings.codemods if name not in ignored)
        groups.setdefault(codemods, []).append(index)
    results: dict[int, FileResult] = {}
    for codemods, indexes in groups.items():
        group_settings = replace(settings, codemods=codemods)
        if not codemods:
            for index in indexes:
                results[index] = FileResult(found.files[index].path)
                if on_result is not None:
                    on_result(results[index])
            continue
        cache = None
        if options.use_cache:
            from torchfix.engine.cache import ResultCache

            cache = ResultCache.at(cache_root(config, paths), group_settings)
            if project.scan_memo is None:
                project.scan_memo = cache.scan_memo("torch-version-checks")
            if project.memo_factory is None:
                project.memo_factory = cache.scan_memo
            if project.fact_memo is None:
                project.fact_memo = cache.fact_memo()
        files = [found.files[index] for index in indexes]
        if cache is not None and len(files) >= _STAMPED_RUN_FILES:
            # A run over a folder remembers its project facts, for the module folders
            # of all its files (run_files registers them too, before any fact is read).
            for source in files:
                project.begin_module(source.path)
            project.open_fact_memo()
        for index, result in zip(
            indexes, run_files(files, group_settings, options.jobs, cache, project), strict=True
        ):
            results[index] = result
            project.remember_facts(result.facts)
            if on_result is not None:
                on_result(result)
        project.flush_fact_memo()
    outcome.results = with_new_files([results[index] for index in sorted(results)])
    outcome.warnings = suppression_warnings(found.files) + [
        warning for result in outcome.results
        if (warning := unimportable_warning(result)) is not None]
    outcome.seconds = time.perf_counter() - started
    return outcome


def run_source(data: bytes, path: Path, options: RunOptions) -> RunOutcome:
    """One run over text that is not read from disk (an editor's buffer on stdin), as if
    it were the file at `path`: that path's configuration, excludes, per-file ignores
    and project apply. An excluded path gives no result at all."""
    started = time.perf_counter()
    settings, config = resolve([path], options)
    outcome = RunOutcome(settings, config, Discovery(), project_root(config, [path]))
    excludes = [(config.root, config.exclude),
                (options.exclude_root or Path.cwd(), tuple(options.exclude))]
    if not is_excluded(path, excludes):
        outcome.discovery.files.append(SourceFile(Path(os.path.abspath(path)), explicit=True))
        ignored = config.ignored_for(path)
        settings = replace(settings, codemods=tuple(
            name for name in settings.codemods if name not in ignored))
        project = Project(outcome.root, configured_min_torch=config.min_torch,
                          codemod_loader=registry.load)
        work = partial(process_bytes, data, path, settings, explicit=True, project=project)
        result = on_parser_stack(work) if settings.codemods else FileResult(path)
        outcome.results = [result]
    outcome.seconds = time.perf_counter() - started
    return outcome


def with_new_files(results: Sequence[FileResult]) -> list[FileResult]:
    """The results, after a result for each file their fixes need created (`creates`):
    one per path, first, so that `apply` writes it before the files that use it.

    A path asked for with different contents, or that exists already with other
    contents, is created for no one: the files asking for it fail (their fixes would
    rely on it). A path that already holds exactly the contents asked for is left alone.
    """
    wanted: dict[Path, list[int]] = {}
    for index, result in enumerate(results):
        for new_file in result.creates:
            wanted.setdefault(new_file.path, []).append(index)
    if not wanted:
        return list(results)
    failed: dict[int, str] = {}
    created: list[FileResult] = []
    for path, askers in wanted.items():
        files = [f for index in askers for f in results[index].creates if f.path == path]
        shown = _shown(path, results[askers[0]].path)
        problem = None
        if len({f.data for f in files}) > 1:
            problem = f"needs {shown} created, but another file of this run needs it " \
                      "created differently; not written"
        else:
            try:
                existing: bytes | None = path.read_bytes()
            except FileNotFoundError:
                existing = None
            except OSError as exc:
                existing = b""
                problem = f"needs {shown} created, but it cannot be read: " \
                          f"{exc.strerror or exc}; not written"
            if problem is None and existing is not None and existing != files[0].data:
                problem = f"needs {shown} created, but that file exists with other " \
                          "contents; not written"
            elif problem is None and existing is None:
                created.append(FileResult(Path(shown), source=b"", output=files[0].data,
                                          parsed=True, created_by=files[0].codemod))
        if problem is not None:
            for index in askers:
                failed.setdefault(index, problem)
    kept = [
        FileResult(result.path, error=FileError(failed[index]), parsed=True)
        if index in failed else result
        for index, result in enumerate(results)
    ]
    return created + kept


def _shown(path: Path, like: Path) -> str:
    """`path` (absolute) the way `like` is written: relative to here if `like` is."""
    if like.is_absolute():
        return str(path)
    return os.path.relpath(path)


def suppression_warnings(files: Sequence[SourceFile]) -> list[tuple[Path, int, int, str]]:
    """Codemod names in `# torchfix: ignore[...]` comments that no codemod has.

    Such a comment suppresses nothing, silently, so every file is looked at, not only
    those a codemod reads: a byte search finds the few that hold a suppression at all.
    """
    known = registry.known_names()
    warnings: list[tuple[Path, int, int, str]] = []
    for source in files:
        try:
            data = source.path.read_bytes()
        except OSError:
            continue  # the run reports unreadable files
        if b"torchfix:" not in data:  # before importing the comment parser at all
            continue
        from torchfix.rewrite.suppressions import may_hold_directive, unknown_names

        if not may_hold_directive(data):
            continue
        import difflib  # only for a file that names codemods in its comments

        for line, column, name in unknown_names(data, known):
            hint = difflib.get_close_matches(name, sorted(known), n=1)
            warnings.append((source.path, line, column,
                             f"unknown codemod '{name}' in a `# torchfix: ignore` comment"
                             + (f"; did you mean '{hint[0]}'?" if hint else "")))
    return warnings


def cache_root(config: Config, paths: Sequence[Path]) -> Path:
    """Where the result cache lives: the project root (config file, else git), else here."""
    if config.path is not None:
        return config.root
    return git_root(_common_folder(paths).resolve()) or Path.cwd()


# Files that mark the top folder of a Python project outside git.
PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")


def project_root(config: Config, paths: Sequence[Path]) -> Path:
    """The base of a run: the git root of the targets' common folder; outside git, the
    folder of the configuration file when it holds every target; else the nearest folder
    from the common folder up to the current folder that holds a project file
    (`pyproject.toml`, `setup.py`, `setup.cfg`: an unpacked sdist, a project not yet
    under git); else that common folder.

    A file named alone (pre-commit, an editor) thus belongs to its project, not to its
    own folder: the project's formatter settings, torch floor and tests are read, and
    patch paths are the project's (`a/pkg/model.py`, not `a/model.py`).

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
    cwd = Path.cwd()
    if folder.is_relative_to(cwd):
        # Looked for up to the current folder only: a stray pyproject.toml above it (in
        # /tmp, in a home folder) is no project of these files.
        between = [folder, *(parent for parent in folder.parents if parent.is_relative_to(cwd))]
        marked = next((candidate for candidate in between
                       if any((candidate / name).is_file() for name in PROJECT_FILES)), None)
        if marked is not None:
            return marked.resolve()
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
