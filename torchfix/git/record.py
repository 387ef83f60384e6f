"""Run records: every `torchfix apply` that writes files leaves the exact change it made,
to review, share and take back (`torchfix undo`), inside git or not.

    <record dir>/<run>/changes.patch   the change as one unified patch, a/ b/ paths
                                       relative to the project root (`git apply -R`,
                                       `patch -p1 -R` restore the files exactly)
    <record dir>/<run>/run.json        codemods, settings, tool version, and per file:
                                       path, changes per codemod, sha256 before and after
    <record dir>/<run>/.gitignore      "*": git never sees the run
    .torchfix/.gitignore               "*": nor anything in torchfix's folder

The record dir is `.torchfix/runs` under the project root (`pipeline.project_root`: the
git root, else the configuration file's folder, else the target folder), `record-dir` in
`[tool.torchfix]`, or `--record-dir`. A run is named by its UTC start time to the
millisecond (`20261122-101500-123`); a name is never reused and never sorts before an
existing one (a clash or a clock that went back moves it on by a millisecond), so the
order of names is the order of runs.

The record is written so that a crash never leaves it claiming a change that did not
happen, nor losing one that did:

1. Before the first file is touched: the run folder, `pending.patch` (every planned
   change) and `run.json` with state "writing" are written and synced to disk.
2. Files are written one by one.
3. `changes.patch` is written with the files actually written, then `run.json` with
   state "done" listing only those, and `pending.patch` is removed. An interrupt (Ctrl-C)
   between two files still gets this step (`"interrupted": true`).

A run killed in step 2 or 3 stays "writing" with no `changes.patch` (or an exact one).
`torchfix undo` then decides per planned file from its hash: the recorded "after" bytes
mean it was written (restore it), the "before" bytes that it was not (leave it), anything
else that it changed since (refuse). A file the run created (`"created": true`, a fix
that needs a new file) is removed by undo, and was not written if it does not exist.

A run record can be forged: a repository may commit one (`git add -f`). So `undo` trusts
nothing in it about *where* to write: it works out the project root itself, as `apply`
does, refuses a record made for another root, and refuses any file whose path is not a
plain relative one, whose real path (symlinks resolved) leaves that root, or that the
patch and `run.json` do not both name.
"""

from __future__ import annotations

import calendar
import hashlib
import json
import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from torchfix import __version__
from torchfix.engine.config import Config, ConfigError, find_config, load_config
from torchfix.engine.containment import is_inside, real, relative_path_problem
from torchfix.engine.pipeline import RunOutcome, project_root
from torchfix.engine.results import FileResult
from torchfix.engine.writing import (
    WriteError,
    create_file,
    remove_file,
    replace_file,
    sync_folder,
    write_atomically,
)
from torchfix.git.diffs import (
    DEV_NULL,
    FilePatch,
    PatchFormatError,
    parse_patch,
    patch_path,
    reverse_apply,
    unified_diff,
)
from torchfix.output.report import shown_path

TORCHFIX_FOLDER = ".torchfix"
DEFAULT_RECORD_DIR = Path(TORCHFIX_FOLDER) / "runs"
IGNORE_ALL = "# Created by torchfix; safe to delete.\n*\n"  # a .gitignore git never looks past
RUN_FILE = "run.json"
PATCH_FILE = "changes.patch"
PENDING_FILE = "pending.patch"
FORMAT = 1
NAME_PATTERN = re.compile(r"\d{8}-\d{6}-\d{3}")
_NAME_TIME = "%Y%m%d-%H%M%S"


class RecordError(Exception):
    """A run record cannot be made, found or used; the message names what and why."""

    def __init__(self, message: str, *, internal: bool = False) -> None:
        super().__init__(message)
        self.internal = internal  # a torchfix bug, not something about the user's files


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- recording a run -----------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedFile:
    """A file `apply` is about to write, with its part of the patch."""

    path: Path  # on disk
    name: str  # in the patch: relative to the project root, forward slashes
    before: bytes
    after: bytes
    diff: bytes
    changes: Mapping[str, int]  # applied changes per codemod
    created: bool = False  # a new file (before is empty): undo removes it

    def entry(self) -> dict[str, Any]:
        entry = {
            "path": self.name,
            "changes": dict(self.changes),
            "before_sha256": sha256(self.before),
            "after_sha256": sha256(self.after),
        }
        if self.created:
            entry["created"] = True
        return entry


def plan_file(result: FileResult, root: Path) -> PlannedFile:
    """The record of one rewrite; RecordError if the record could not undo it."""
    rewrite = result.rewrite()
    assert rewrite is not None, "only rewritten files are recorded"
    before, after = rewrite
    name = patch_path(result.path, root)
    if name == ".." or name.startswith("../"):
        raise RecordError(f"outside the project root {root}; not written (--no-record "
                          "writes it without a record)")
    problem = relative_path_problem(name)
    if problem is not None:  # undo would refuse it: never write what it cannot take back
        raise RecordError(f"its path {problem}; not written (--no-record writes it without "
                          "a record)")
    created = result.created_by is not None
    diff = unified_diff(before, after, name, created=created)
    # Never write a change the record cannot take back: read the patch back as undo will.
    try:
        (file_patch,) = parse_patch(diff)
        exact = reverse_apply(file_patch, after) == before
    except (PatchFormatError, ValueError):
        exact = False
    if not exact:
        raise RecordError("internal error: the run record cannot represent this change "
                          "exactly; not written", internal=True)
    changes = Counter(change.codemod for change in result.changes if change.applied)
    return PlannedFile(result.path, name, before, after, diff, dict(sorted(changes.items())),
                       created)


def record_dir_for(outcome: RunOutcome, given: Path | None) -> Path:
    """Where this run's record goes: --record-dir, else the config's, else the default."""
    if given is not None:
        return Path(os.path.abspath(given))  # the user's own choice may point anywhere
    return configured_record_dir(outcome.config, outcome.root)


def configured_record_dir(config: Config, root: Path) -> Path:
    """`record-dir` from the configuration, else `.torchfix/runs` in the project root.

    Either must lie inside the root once symlinks are resolved: a repository's own
    pyproject.toml or a committed `.torchfix` symlink must not make torchfix create
    folders elsewhere. Only --record-dir on the command line may point outside.
    """
    if config.record_dir is not None:
        if not is_inside(config.record_dir, root):
            raise ConfigError(f"{config.path}: [tool.torchfix] record-dir "
                              f"{config.record_dir} is outside the project root {root} "
                              "(only --record-dir on the command line may point elsewhere)")
        return config.record_dir
    folder = root / DEFAULT_RECORD_DIR
    if not is_inside(folder, root):
        raise RecordError(f"{shown_path(folder)} leads outside the project root {root} "
                          f"(to {real(folder)}); not used (--record-dir DIR records elsewhere)")
    return folder


class RunRecorder:
    """Records one `apply` run around its writes: `begin`, `wrote` per file, `finish`."""

    def __init__(self, folder: Path, document: dict[str, Any],
                 planned: Sequence[PlannedFile]) -> None:
        self.folder = folder
        self._document = document
        self._planned = list(planned)
        self._written: list[PlannedFile] = []

    @property
    def name(self) -> str:
        return self.folder.name

    @classmethod
    def begin(cls, record_dir: Path, outcome: RunOutcome, paths: Sequence[Path],
              planned: Sequence[PlannedFile]) -> RunRecorder:
        """Make the run folder and write the planned change, before any file is written."""
        folder = _new_run_folder(record_dir)
        document = _document(folder, outcome, paths, planned)
        try:
            (folder / ".gitignore").write_text(IGNORE_ALL)
            replace_file(folder / PENDING_FILE, b"".join(p.diff for p in planned))
            replace_file(folder / RUN_FILE, _dumps(document))
        except OSError as exc:
            shutil.rmtree(folder, ignore_errors=True)
            raise RecordError(f"cannot record the run in {shown_path(folder)}: "
                              f"{exc.strerror or exc}") from exc
        return cls(folder, document, planned)

    def wrote(self, planned: PlannedFile) -> None:
        self._written.append(planned)

    def finish(self, interrupted: bool = False) -> Path | None:
        """Record what was written; the patch's path, or None (and no folder) if nothing
        was. Raises RecordError if the record cannot be completed."""
        if not self._written:
            shutil.rmtree(self.folder, ignore_errors=True)
            return None
        document = self._document
        document.update(_totals(self._written))
        document.update(state="done", interrupted=interrupted, finished=_now(),
                        patch=PATCH_FILE, files=[p.entry() for p in self._written])
        try:
            # The patch first: until run.json says "done", undo relies on the hashes.
            replace_file(self.folder / PATCH_FILE, b"".join(p.diff for p in self._written))
            replace_file(self.folder / RUN_FILE, _dumps(document))
            (self.folder / PENDING_FILE).unlink()
            sync_folder(self.folder)
        except OSError as exc:
            where = shown_path(self.folder)
            raise RecordError(f"{where}: cannot finish the run record: {exc.strerror or exc}; "
                              f"`torchfix undo {where}` still reverses what was written"
                              ) from exc
        return self.folder / PATCH_FILE


def prune_runs(record_dir: Path, keep: int, current: str) -> list[str]:
    """Delete the oldest finished runs so that the newest `keep` runs remain (0 keeps all);
    the names of those deleted.

    Runs pile up otherwise (pre-commit records one per commit). A run still "writing" is
    never deleted (a crashed run whose undo may be needed, or one running right now), nor
    an unreadable one, nor `current`, the run just made.
    """
    if keep <= 0:
        return []
    names = _run_names(record_dir)
    pruned: list[str] = []
    for name in names[: max(0, len(names) - keep)]:
        folder = record_dir / name
        if name == current:
            continue
        try:
            document = json.loads((folder / RUN_FILE).read_bytes())
        except (OSError, ValueError):
            continue
        if not isinstance(document, dict) or document.get("state") != "done":
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            pruned.append(name)
    return pruned


def _new_run_folder(record_dir: Path) -> Path:
    # The `.torchfix` folder holding the records (the default `.torchfix/runs`, or a
    # `record-dir` below one), when torchfix makes it now or made it before.
    ours = next((folder for folder in (record_dir, *record_dir.parents)
                 if folder.name == TORCHFIX_FOLDER), None)
    if ours is not None and ours.exists() and not _only_torchfix_made(ours):
        ours = None
    try:
        record_dir.mkdir(parents=True, exist_ok=True)
        if ours is not None:
            _ignore_in_git(ours)
    except OSError as exc:
        raise RecordError(f"cannot create the record folder {shown_path(record_dir)}: "
                          f"{exc.strerror or exc}") from exc
    now_ms = time.time_ns() // 1_000_000
    latest = max((_name_ms(name) for name in _run_names(record_dir)), default=-1)
    candidate = max(now_ms, latest + 1)
    for _attempt in range(1000):
        folder = record_dir / _ms_name(candidate)
        try:
            folder.mkdir()  # exclusive: a run started at the same millisecond takes the next
        except FileExistsError:
            candidate += 1
            continue
        except OSError as exc:
            raise RecordError(f"cannot create a run folder in {shown_path(record_dir)}: "
                              f"{exc.strerror or exc}") from exc
        return folder
    raise RecordError(f"cannot create a run folder in {shown_path(record_dir)}: every name "
                      "is taken")


def _only_torchfix_made(folder: Path) -> bool:
    """Whether the `.torchfix` folder holds only what torchfix puts there (its run
    records, its `.gitignore`): one an earlier torchfix made. A folder of the project's
    own is left as it is."""
    try:
        return {entry.name for entry in folder.iterdir()} <= {DEFAULT_RECORD_DIR.name,
                                                              ".gitignore"}
    except OSError:
        return False


def _ignore_in_git(folder: Path) -> None:
    """Give torchfix's `.torchfix` folder a `.gitignore` of `*`, as ruff does its cache
    (and torchfix its `.torchfix_cache`): git, and the tools that read .gitignore, never
    see the run records nor anything else in it, and no project has to list it."""
    marker = folder / ".gitignore"
    if not marker.exists():
        marker.write_text(IGNORE_ALL)


def _ms_name(ms: int) -> str:
    return time.strftime(_NAME_TIME, time.gmtime(ms // 1000)) + f"-{ms % 1000:03d}"


def _name_ms(name: str) -> int:
    stamp, millis = name.rsplit("-", 1)
    return calendar.timegm(time.strptime(stamp, _NAME_TIME)) * 1000 + int(millis)


def _run_names(record_dir: Path) -> list[str]:
    try:
        entries = list(os.scandir(record_dir))
    except OSError:
        return []
    return sorted(entry.name for entry in entries
                  if NAME_PATTERN.fullmatch(entry.name) and entry.is_dir())


def _document(folder: Path, outcome: RunOutcome, paths: Sequence[Path],
              planned: Sequence[PlannedFile]) -> dict[str, Any]:
    root = outcome.root
    settings = outcome.settings
    return {
        "format": FORMAT,
        "run": folder.name,
        "state": "writing",
        "interrupted": False,
        "torchfix": __version__,
        "started": _now(),
        "finished": None,
        "undone": None,
        # Relative to the run folder when inside the project: a copied or moved project
        # (record included) then undoes its own files, not the original's.
        "root": _stored_root(folder, root),
        "git_head": _git_head(root),
        "paths": [_relative(path, root) for path in paths],
        "settings": {
            "codemods": list(settings.codemods),
            "unsafe_fixes": settings.unsafe_fixes,
            "include_generated": not settings.skip_generated,
            "options": {name: dict(values) for name, values in settings.options.items()},
            "config": str(outcome.config.path) if outcome.config.path else None,
        },
        **_totals(planned),
        "patch": PENDING_FILE,
        "files": [p.entry() for p in planned],
    }


def _relative(path: Path, root: Path) -> str:
    """A target as given on the command line, relative to the root ("." for the root)."""
    return Path(os.path.relpath(os.path.realpath(path), root)).as_posix()


def _totals(files: Sequence[PlannedFile]) -> dict[str, Any]:
    per_codemod: Counter[str] = Counter()
    for planned in files:
        per_codemod.update(planned.changes)
    return {
        "codemods": dict(sorted(per_codemod.items())),
        "files_changed": len(files),
        "changes": sum(per_codemod.values()),
    }


def _stored_root(folder: Path, root: Path) -> str:
    if folder.resolve().is_relative_to(root.resolve()):
        return Path(os.path.relpath(root.resolve(), folder.resolve())).as_posix()
    return str(root.resolve())


def _git_head(root: Path) -> str | None:
    """The commit the run started from, so its patch can be applied to a fresh checkout."""
    if not (root / ".git").exists():
        return None
    import git  # gitpython: only runs that write files need it

    try:
        return git.Repo(root).head.commit.hexsha
    except (git.GitError, ValueError, OSError):  # no commit yet, or not a usable repository
        return None


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="milliseconds")


def _dumps(document: Mapping[str, Any]) -> bytes:
    return (json.dumps(document, indent=2) + "\n").encode("ascii")


# -- finding a run ---------------------------------------------------------------------------


@dataclass
class RecordedRun:
    """A run record read back from its folder."""

    folder: Path
    document: dict[str, Any]
    root: Path

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def done(self) -> bool:
        return self.document["state"] == "done"

    @property
    def undone(self) -> str | None:
        return self.document.get("undone")

    @property
    def files(self) -> list[dict[str, Any]]:
        return self.document["files"]


def load_run(folder: Path) -> RecordedRun:
    """A run folder's record, checked; RecordError naming the file if it is unusable."""
    run_file = folder / RUN_FILE
    try:
        document = json.loads(run_file.read_bytes())
    except FileNotFoundError as exc:
        raise RecordError(f"{shown_path(folder)}: not a torchfix run (no {RUN_FILE})") from exc
    except OSError as exc:
        raise RecordError(f"{shown_path(run_file)}: cannot read: {exc.strerror or exc}") from exc
    except ValueError as exc:
        raise RecordError(f"{shown_path(run_file)}: corrupt run record: {exc}") from exc
    problem = _shape_problem(document)
    if problem is not None:
        raise RecordError(f"{shown_path(run_file)}: corrupt run record: {problem}")
    stored = Path(document["root"])
    root = stored if stored.is_absolute() else Path(os.path.normpath(folder / stored))
    return RecordedRun(folder, document, root)


def _shape_problem(document: Any) -> str | None:
    if not isinstance(document, dict):
        return "not a JSON object"
    if document.get("format") != FORMAT:
        return f"unknown format {document.get('format')!r} (this torchfix reads {FORMAT})"
    if document.get("state") not in ("writing", "done"):
        return f"unknown state {document.get('state')!r}"
    if not isinstance(document.get("root"), str) or "\0" in document["root"]:
        return "no project root"
    files = document.get("files")
    if not isinstance(files, list) or not all(
        isinstance(entry, dict)
        and all(isinstance(entry.get(key), str)
                for key in ("path", "before_sha256", "after_sha256"))
        for entry in files
    ):
        return "the file list is malformed"
    names = [entry["path"] for entry in files]
    for name in names:
        problem = relative_path_problem(name)
        if problem is not None:
            return f"file path {name!r} {problem}; refused"
    if len(set(names)) != len(names):
        return "a file is listed twice"
    return None


def find_run(record_dir: Path, run: str | None) -> RecordedRun:
    """The run named `run` (a folder name in `record_dir`, or a path to a run folder or a
    file in it), or the latest run not undone yet."""
    if run is None:
        names = _run_names(record_dir)
        if not names:
            raise RecordError(f"nothing to undo: no run recorded in {shown_path(record_dir)}")
        for name in reversed(names):
            recorded = load_run(record_dir / name)
            if recorded.undone is None:
                return recorded
        raise RecordError(f"nothing to undo: every run in {shown_path(record_dir)} is undone "
                          "already")
    given = Path(run).expanduser()
    if NAME_PATTERN.fullmatch(run) and (record_dir / run).is_dir():
        return load_run(record_dir / run)
    if given.is_file():
        given = given.parent  # e.g. the changes.patch path the summary of apply printed
    if given.is_dir() and (given / RUN_FILE).exists():
        return load_run(given)
    known = _run_names(record_dir)
    hint = f" (latest: {known[-1]})" if known else " (no run recorded there)"
    raise RecordError(f"no run '{run}' in {shown_path(record_dir)}{hint}")


# -- undoing a run ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Restore:
    """One file `undo` puts back."""

    path: Path
    name: str
    after: bytes  # what the file holds now: what the run wrote
    before: bytes  # what it held before the run
    created: bool = False  # the run created it: undo removes it


@dataclass
class UndoPlan:
    """What `undo` would restore, and why it may not."""

    root: Path  # the project root undo works out itself; every restore lies inside it
    restores: list[Restore] = field(default_factory=list)
    not_written: list[str] = field(default_factory=list)  # planned by a crashed run only
    problems: list[tuple[Path, str]] = field(default_factory=list)


def undo_root(folder: Path, config_file: Path | None = None) -> Path:
    """The project root `undo` works in, computed as `apply` computes it, never read from
    the record: from the folder holding `.torchfix/runs/<run>` when the run sits there,
    else from the current folder. Raises ConfigError for a bad configuration."""
    folder = Path(os.path.abspath(folder))
    default_layout = (folder.parent.name == DEFAULT_RECORD_DIR.name
                      and folder.parent.parent.name == DEFAULT_RECORD_DIR.parent.name)
    base = folder.parent.parent.parent if default_layout else Path.cwd()
    if config_file is not None and not config_file.is_file():
        raise ConfigError(f"{config_file}: configuration file not found")
    config = load_config(config_file or find_config(base))
    return real(project_root(config, [base]))


def plan_undo(recorded: RecordedRun, root: Path) -> UndoPlan:
    """Check every file of the run before anything is touched.

    The run must have been recorded for `root`, and every file must lie inside it, also
    through symlinks; anything else refuses the whole undo (RecordError). A file
    qualifies when it holds exactly the bytes the run wrote; the bytes to put back come
    from reversing the recorded patch and must hash to what the file held before.
    """
    if recorded.undone is not None:
        raise RecordError(f"run {recorded.name} was undone already ({recorded.undone})")
    run_file = shown_path(recorded.folder / RUN_FILE)
    # Values from the record are shown with repr: a forged one may hold anything.
    if real(recorded.root) != real(root):
        raise RecordError(f"{run_file}: the run was recorded for the project root "
                          f"{str(recorded.root)!r}, not this one ({root}); refused (run "
                          "`torchfix undo` where `apply` ran)")
    for entry in recorded.files:
        if not is_inside(root / entry["path"], root):
            raise RecordError(f"{run_file}: {entry['path']!r} leads outside the project root "
                              f"{root} (to {real(root / entry['path'])}); refused")
    patches = _file_patches(recorded)
    plan = UndoPlan(root)
    for entry in recorded.files:
        name = entry["path"]
        path = root / name
        created = entry.get("created") is True
        try:
            current = path.read_bytes()
        except FileNotFoundError:
            if created and not recorded.done:
                plan.not_written.append(name)  # the run was killed before creating it
            else:
                plan.problems.append((path, f"removed since run {recorded.name}"))
            continue
        except OSError as exc:
            plan.problems.append((path, f"cannot read: {exc.strerror or exc}"))
            continue
        digest = sha256(current)
        if digest == entry["after_sha256"]:
            before = _reverse(recorded, patches, name, current)
            if sha256(before) != entry["before_sha256"]:
                raise RecordError(f"{shown_path(recorded.folder)}: corrupt run record: "
                                  f"reversing the patch of {name} does not give the "
                                  "recorded original")
            if not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222:
                plan.problems.append((path, "file is read-only"))
                continue
            plan.restores.append(Restore(path, name, current, before, created))
        elif not recorded.done and digest == entry["before_sha256"]:
            plan.not_written.append(name)  # the run was killed before writing it
        elif digest == entry["before_sha256"]:
            plan.problems.append((path, f"already holds what it held before run "
                                        f"{recorded.name} (undone another way?)"))
        else:
            plan.problems.append((path, f"changed since run {recorded.name}"))
    return plan


def _file_patches(recorded: RecordedRun) -> dict[str, FilePatch]:
    # A run that never finished has only pending.patch; it lists every planned file.
    patch_file = recorded.folder / (PATCH_FILE if recorded.done else PENDING_FILE)
    try:
        patches = parse_patch(patch_file.read_bytes())
    except OSError as exc:
        raise RecordError(f"{shown_path(patch_file)}: cannot read: {exc.strerror or exc}") from exc
    except PatchFormatError as exc:
        raise RecordError(f"{shown_path(patch_file)}: corrupt patch: {exc}") from exc
    # The patch is only trusted for files run.json names, under the same name on both
    # sides, once each.
    listed = {entry["path"] for entry in recorded.files}
    created = {entry["path"] for entry in recorded.files if entry.get("created") is True}
    named: dict[str, FilePatch] = {}
    for patch in patches:
        # A file the run created has /dev/null as its old side; every other file its own name.
        expected_old = DEV_NULL if patch.new_path in created else patch.new_path
        if patch.old_path != expected_old:
            problem = f"names two files, {patch.old_path!r} and {patch.new_path!r}"
        elif patch.new_path not in listed:
            problem = f"changes {patch.new_path!r}, which {RUN_FILE} does not list"
        elif patch.new_path in named:
            problem = f"changes {patch.new_path!r} twice"
        else:
            named[patch.new_path] = patch
            continue
        raise RecordError(f"{shown_path(patch_file)}: the patch {problem}; refused")
    return named


def _reverse(recorded: RecordedRun, patches: Mapping[str, FilePatch], name: str,
             current: bytes) -> bytes:
    patch = patches.get(name)
    if patch is None:
        raise RecordError(f"{shown_path(recorded.folder)}: corrupt run record: the patch has no "
                          f"changes for {name}")
    try:
        return reverse_apply(patch, current)
    except PatchFormatError as exc:
        raise RecordError(f"{shown_path(recorded.folder)}: corrupt run record: {exc}") from exc


class UndoWriteError(Exception):
    """A restore failed half way; the files already restored were put back."""

    def __init__(self, path: Path, message: str, rolled_back: bool) -> None:
        super().__init__(message)
        self.path = path
        self.rolled_back = rolled_back


def undo(recorded: RecordedRun, plan: UndoPlan) -> None:
    """Restore every file of a checked plan (all or none), then mark the run undone."""
    restored: list[Restore] = []
    # Files the run created go last: the files that rely on them are restored first.
    for restore in sorted(plan.restores, key=lambda restore: restore.created):
        try:
            if restore.created:
                remove_file(restore.path, restore.after, within=plan.root)
            else:
                write_atomically(restore.path, restore.after, restore.before, within=plan.root)
        except WriteError as exc:
            # Put back what was restored so the tree is as the run left it, not half-undone.
            rolled_back = True
            for done in reversed(restored):
                try:
                    if done.created:
                        create_file(done.path, done.after, within=plan.root)
                    else:
                        write_atomically(done.path, done.before, done.after, within=plan.root)
                except WriteError:
                    rolled_back = False
            raise UndoWriteError(restore.path, str(exc), rolled_back) from exc
        restored.append(restore)
    mark_undone(recorded)


def mark_undone(recorded: RecordedRun) -> None:
    recorded.document["undone"] = _now()
    try:
        replace_file(recorded.folder / RUN_FILE, _dumps(recorded.document))
    except OSError as exc:
        raise RecordError(f"{shown_path(recorded.folder / RUN_FILE)}: files restored, but the run "
                          f"cannot be marked undone: {exc.strerror or exc}") from exc
