"""One file through the pipeline: prefilter → CPython's parse → decide → FileResult.

Every codemod decides its changes on CPython's tree (`torchfix.engine.decide`). `check`
stops there and never imports libcst; when new text is wanted (`apply`, `diff`), the
changes are made by `torchfix.engine.rewrite_file`. The engine returns plain data and
never prints or writes; sinks (writing, diffs, reports, git) decide what to do with a
result. It knows codemods only through the contract and the registry.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from torchfix.engine.config import MB
from torchfix.engine.discovery import is_gallery_output, is_generated
from torchfix.engine.results import EngineSettings, FileError, FileResult
from torchfix.model.ast_index import forget_trees
from torchfix.model.importability import MISSING_FOR_UNIMPORTABLE
from torchfix.rewrite import registry

if TYPE_CHECKING:
    from torchfix.model.project import Project
    from torchfix.rewrite.changes import Change
    from torchfix.rewrite.contract import Codemod

    ParseOn = Callable[[Callable[[], FileResult]], FileResult]

# `FileResult.skipped` of a module that cannot be imported: "unimportable:<line>:<the
# missing modules>", the line of the first import naming one (`unimportable_warning`).
UNIMPORTABLE = "unimportable:"


def unimportable_warning(result: FileResult) -> tuple[Path, int, int, str] | None:
    """The warning that says why `result`'s file was skipped as one that cannot be
    imported; None for any other result."""
    if result.skipped is None or not result.skipped.startswith(UNIMPORTABLE):
        return None
    line, _, names = result.skipped.removeprefix(UNIMPORTABLE).partition(":")
    return (result.path, int(line), 1,
            f"not processed: its package has no module {names}, which it imports, so "
            "nothing can import it (a stray copy?); name the file to process it")


def process_file(path: Path, settings: EngineSettings, *, explicit: bool = False,
                 project: Project | None = None) -> FileResult:
    """Read `path` and run the selected codemods on it. Never raises for bad input."""
    data = read_source(path, settings.max_file_bytes)
    if isinstance(data, FileError):
        return FileResult(path, error=data)
    return process_bytes(data, path, settings, explicit=explicit, project=project)


def too_large(size: int, limit: int) -> str:
    # "20.0 MB > 5 MB"; three digits for the tiny files and limits of tests.
    shown = f"{size / MB:.1f}" if size >= MB // 10 else f"{size / MB:.3g}"
    return f"too large ({shown} MB > {round(limit / MB, 3):g} MB); skipped"


def read_source(path: Path, max_bytes: int | None = None) -> bytes | FileError:
    """The file's bytes, or why they cannot be had; a file over `max_bytes` is not read.

    Memory and time per file grow with its size (libcst keeps a node per token), so a
    huge file would hold up, or take down, the whole run.
    """
    try:
        with path.open("rb") as handle:
            if max_bytes is None:
                return handle.read()
            size = os.fstat(handle.fileno()).st_size
            data = b"" if size > max_bytes else handle.read(max_bytes + 1)
            if size > max_bytes or len(data) > max_bytes:  # the file may grow meanwhile
                return FileError(too_large(max(size, len(data)), max_bytes))
            return data
    except FileNotFoundError:
        return FileError("no such file (removed during the run?)")
    except IsADirectoryError:
        return FileError("is a directory, not a file")
    except OSError as exc:
        return FileError(f"cannot read: {exc.strerror or exc}")


def process_bytes(
    data: bytes, path: Path, settings: EngineSettings, *, explicit: bool = False,
    project: Project | None = None, parse_on: ParseOn | None = None,
) -> FileResult:
    """Run the selected codemods on the contents of a file read from `path`.

    `parse_on(work)`: calls `work` where the file may be parsed (the runner's large-stack
    thread); it is asked only for a file that some selected codemod's triggers are in.
    """
    if settings.skip_generated and not explicit and (is_generated(data)
                                                     or is_gallery_output(path)):
        return FileResult(path, skipped="generated")
    try:
        return process_source(data, path, settings, project, parse_on, explicit=explicit)
    finally:
        forget_trees()  # a worker keeps nothing of a file once its result is made


_default_projects: dict[Path, Project] = {}


def default_project(path: Path) -> Project:
    """The project of a file processed on its own: the folder holding it."""
    folder = Path(os.path.abspath(path)).parent
    if folder not in _default_projects:
        from torchfix.model.project import Project

        _default_projects[folder] = Project(folder)
    return _default_projects[folder]


def process_source(data: bytes, path: Path, settings: EngineSettings,
                   project: Project | None = None,
                   parse_on: ParseOn | None = None, *, explicit: bool = False) -> FileResult:
    """Run the selected codemods on `data` (the contents of `path`); the parsing and
    deciding through `parse_on` when given (see `process_bytes`). A file named
    `explicit`ly is processed even where its package lacks the modules it imports."""
    if b"\0" in data:
        return FileResult(path, error=FileError("binary file (contains NUL bytes), not Python"))
    # The manifest's triggers first: a codemod whose triggers the file lacks is never
    # imported.
    known = registry.entries_by_name()
    entries = [known[name] for name in settings.codemods]
    triggered = []
    for entry in entries:
        if not any(trigger in data for trigger in entry.triggers):
            continue
        try:
            codemod = entry.load()
        except Exception as exc:  # a broken install or codemod: one line, not a traceback
            text = str(exc).strip().splitlines()
            return FileResult(path, error=FileError(
                f"internal error: codemod {entry.name} cannot be loaded: "
                f"{type(exc).__name__}: {text[0] if text else ''}; file left unchanged",
                internal=True, codemod=entry.name))
        if not codemod.skips_path(path):
            triggered.append(codemod)
    if not triggered:
        return FileResult(path)
    if parse_on is not None:
        return parse_on(partial(_process_triggered, data, path, triggered, settings, project,
                                explicit))
    return _process_triggered(data, path, triggered, settings, project, explicit)


def _process_triggered(data: bytes, path: Path, triggered: Sequence[type[Codemod]],
                       settings: EngineSettings, project: Project | None,
                       explicit: bool = False) -> FileResult:
    # Only a file some codemod may act on needs the parsers and the models.
    from torchfix.engine.decide import TOO_DEEP, FileFailure

    project = project if project is not None else default_project(path)
    project.begin_file(path)
    try:
        result = _process(data, path, triggered, settings, project, explicit)
    except FileFailure as failure:
        result = FileResult(path, error=failure.error, parsed=True)
    except RecursionError:
        result = FileResult(path, error=FileError(TOO_DEEP), parsed=True)
    if project.facts_read:
        result = replace(result, facts=tuple(sorted(project.facts_read.items())))
    return result


def _process(data: bytes, path: Path, codemods: Sequence[type[Codemod]],
             settings: EngineSettings, project: Project, explicit: bool = False) -> FileResult:
    from torchfix.engine.decide import FileFailure, decide, decode, python_ast
    from torchfix.rewrite.suppressions import Suppressions, find_suppressions, may_suppress

    tree, python_error = python_ast(data, path)
    decoded = decode(data)
    if tree is None or decoded is None:
        raise FileFailure(FileError(python_error or "cannot decode the file"))
    # A cheap first look at the tree: most files hold nothing for most codemods.
    codemods = [c for c in codemods if (lines := c.candidate_lines(tree)) is None or lines]
    if not codemods:
        return FileResult(path)
    if not explicit:
        missing = project.missing_relative_imports(tree, path)
        names = list(dict.fromkeys(name for name, _ in missing))
        if len(names) >= MISSING_FOR_UNIMPORTABLE:
            return FileResult(path, parsed=True, skipped=f"{UNIMPORTABLE}{missing[0][1]}:"
                              + ", ".join(f"`{name}`" for name in names))
    text, encoding = decoded
    suppressions = find_suppressions(text) if may_suppress(data) else Suppressions()
    if settings.produce_output:
        from torchfix.engine.rewrite_file import rewrite

        return rewrite(data, text, encoding, tree, path, codemods, settings, suppressions,
                       project)
    changes: list[Change] = []
    for codemod in codemods:
        _, decided = decide(codemod, text, tree, path, settings, suppressions, project)
        changes.extend(change for _, change in decided)
    return FileResult(path, tuple(changes), parsed=True, encoding=encoding)
