"""`[tool.torchfix]` in the nearest pyproject.toml, merged with command-line options.

    [tool.torchfix]
    select = ["ALL"]                  # default: the codemods that are on by default
    extend-select = ["atomic-save"]   # more codemods on top of select (or the default)
    ignore = ["atomic-save"]
    exclude = ["third_party/", "*_pb2.py"]
    extend-exclude = ["legacy/"]      # more patterns (both add to the folders always skipped)
    unsafe-fixes = false
    record-dir = ".torchfix/runs"     # where `apply` records its runs (relative to this file)
    min-torch = "2.1"                 # oldest torch the code supports (default: the project's
                                      # declared torch requirement)
    keep-runs = 20                    # run records kept; older finished ones are deleted
    max-file-size = 5                 # MB; larger files get one error line and are skipped

    [tool.torchfix.per-file-ignores]  # globs relative to this file, as in ruff
    "tests/*" = ["assert-to-raise"]

    [tool.torchfix.clamp-log-ratio]   # per-codemod options
    bound = 10.0

The command line wins over the file.
"""

from __future__ import annotations

import functools
import math
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from torchfix.engine.containment import is_inside
from torchfix.rewrite import registry

if TYPE_CHECKING:
    from types import ModuleType


def _toml() -> ModuleType:
    # Imported when a configuration file is read: most single-file runs have none.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    return tomllib

_LIST_KEYS = ("select", "extend-select", "ignore", "exclude", "extend-exclude")
_BOOL_KEYS = ("unsafe-fixes", "include-generated")
_FOLDER_KEYS = ("record-dir",)
_VERSION_KEYS = ("min-torch",)
DEFAULT_KEEP_RUNS = 20
_NUMBER_KEYS = ("max-file-size",)
# Larger files are not processed: libcst needs 0.1 (data) to 1.7 GB (dense code) of memory
# per megabyte, in each worker. Human-written modules stay far below this (torch's
# largest is 1.3 MB); modules with embedded data reach a few megabytes.
DEFAULT_MAX_FILE_SIZE_MB = 5.0
MB = 1024 * 1024


class ConfigError(ValueError):
    """An invalid configuration file or option: a usage error (exit code 2)."""


@dataclass(frozen=True)
class Config:
    """The `[tool.torchfix]` settings of one configuration file (the defaults without one)."""

    path: Path | None = None  # the pyproject.toml read, if any
    root: Path = field(default_factory=Path.cwd)  # where exclude patterns are anchored
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()  # exclude and extend-exclude together
    unsafe_fixes: bool = False
    include_generated: bool = False
    record_dir: Path | None = None  # absolute; None: the default under the project root
    # The oldest torch the code must run on; None: the project's declared floor decides.
    min_torch: tuple[int, int] | None = None
    keep_runs: int = DEFAULT_KEEP_RUNS  # 0: keep every run
    # (glob relative to `root`, codemods not run on the files it matches)
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    max_file_size: float = DEFAULT_MAX_FILE_SIZE_MB  # MB
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def ignored_for(self, path: Path) -> frozenset[str]:
        """The codemods per-file-ignores turns off for the file at `path`."""
        if not self.per_file_ignores:
            return frozenset()
        try:
            relative = Path(os.path.abspath(path)).relative_to(self.root).as_posix()
        except ValueError:
            return frozenset()  # outside the configured project: its patterns do not apply
        name = relative.rsplit("/", 1)[-1]
        ignored: set[str] = set()
        for pattern, names in self.per_file_ignores:
            # Like ruff: a pattern matches the path from the config's folder, and a pattern
            # without a slash also matches the file name alone (`"__init__.py" = [...]`).
            if _glob(pattern).fullmatch(relative) or (
                "/" not in pattern and _glob(pattern).fullmatch(name)
            ):
                ignored.update(names)
        return frozenset(ignored)


def find_config(start: Path, stop: Path | None = None) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a [tool.torchfix] table.

    With `stop`, folders above it are not searched. Folders are those above `start` as
    given, before symlinks are resolved: a symlinked folder in a project is configured by
    that project (see `pipeline.project_root`).
    """
    start = Path(os.path.abspath(start))
    folder = start if start.is_dir() else start.parent
    candidates = [folder, *folder.parents]
    if stop is not None:
        stop = stop.resolve()
        for index, candidate in enumerate(candidates):
            if candidate.resolve() == stop:
                candidates = candidates[: index + 1]
                break
    for candidate in candidates:
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file() and _has_torchfix_table(pyproject):
            return pyproject
    return None


def load_config(path: Path | None) -> Config:
    """Read and validate the configuration in `path` (no file means defaults)."""
    if path is None:
        return Config()
    table = _read_table(path)
    unknown_codemods: list[str] = []
    options: dict[str, dict[str, Any]] = {}
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in _LIST_KEYS:
            values[key] = tuple(_string_list(path, key, value))
        elif key in _BOOL_KEYS:
            if not isinstance(value, bool):
                raise ConfigError(f"{path}: [tool.torchfix] {key} must be true or false")
            values[key] = value
        elif key == "keep-runs":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ConfigError(f"{path}: [tool.torchfix] keep-runs must be a whole number "
                                  "of runs (0 keeps every run)")
            values[key] = value
        elif key == "per-file-ignores":
            values[key] = _per_file_ignores(path, value)
        elif key in _FOLDER_KEYS:
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(f"{path}: [tool.torchfix] {key} must be a folder path "
                                  "(a non-empty string)")
            values[key] = _folder_inside(path, key, value)
        elif key in _VERSION_KEYS:
            values[key] = parse_torch_version(path, key, value)
        elif key in _NUMBER_KEYS:
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or not math.isfinite(value) or value <= 0):
                raise ConfigError(f"{path}: [tool.torchfix] {key} must be a positive number "
                                  f"(megabytes), got {value!r}")
            values[key] = float(value)
        elif isinstance(value, dict):
            try:
                codemod = registry.get(key)
            except registry.UnknownCodemodError as exc:
                unknown_codemods.append(str(exc))
                continue
            options[codemod.name] = validate_options(path, codemod, value)
        else:
            raise ConfigError(f"{path}: unknown key '{key}' in [tool.torchfix]")
    if unknown_codemods:
        raise ConfigError(f"{path}: [tool.torchfix.<name>]: {unknown_codemods[0]}")
    for key in ("select", "extend-select", "ignore"):
        if key in values:
            try:
                registry.select_names(values[key])
            except registry.UnknownCodemodError as exc:
                raise ConfigError(f"{path}: [tool.torchfix] {key}: {exc}") from exc
    return Config(
        path=path,
        root=path.parent.resolve(),
        select=values.get("select"),
        extend_select=values.get("extend-select", ()),
        ignore=values.get("ignore", ()),
        exclude=values.get("exclude", ()) + values.get("extend-exclude", ()),
        unsafe_fixes=values.get("unsafe-fixes", False),
        include_generated=values.get("include-generated", False),
        record_dir=values.get("record-dir"),
        min_torch=values.get("min-torch"),
        keep_runs=values.get("keep-runs", DEFAULT_KEEP_RUNS),
        per_file_ignores=values.get("per-file-ignores", ()),
        max_file_size=values.get("max-file-size", DEFAULT_MAX_FILE_SIZE_MB),
        options=options,
    )


def _folder_inside(path: Path, key: str, value: str) -> Path:
    """A folder named in the configuration: relative to the file's folder, like exclude
    patterns, and inside it once symlinks are resolved. A repository's own configuration
    must not make torchfix create folders elsewhere (only the command line may)."""
    folder = path.parent.resolve()
    given = Path(value)
    if given.is_absolute() or value.startswith("~") or not is_inside(folder / given, folder):
        raise ConfigError(f"{path}: [tool.torchfix] {key} must be a folder inside the project, "
                          f"relative to this file; {value!r} leads outside it (--{key} on the "
                          "command line may point anywhere)")
    return folder / given


def validate_options(path: Path, codemod: Any, given: Mapping[str, Any]) -> dict[str, Any]:
    declared = {option.name: option for option in codemod.options}
    checked: dict[str, Any] = {}
    for key, value in given.items():
        if key not in declared:
            known = ", ".join(sorted(declared)) or "none"
            raise ConfigError(
                f"{path}: unknown option '{key}' for {codemod.name} (its options: {known})"
            )
        default = declared[key].default
        if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not type(default):
            raise ConfigError(
                f"{path}: [tool.torchfix.{codemod.name}] {key} must be "
                f"{type(default).__name__}, got {value!r}"
            )
        if declared[key].check is not None:
            try:
                declared[key].check(value)
            except ValueError as exc:
                raise ConfigError(
                    f"{path}: [tool.torchfix.{codemod.name}] {key}: {exc}"
                ) from exc
        checked[key] = value
    return checked


def parse_torch_version(path: Path, key: str, value: Any) -> tuple[int, int]:
    """"2.4" (or "2.4.1") → (2, 4)."""
    parts = value.split(".") if isinstance(value, str) else []
    if len(parts) < 2 or not all(part.isdigit() for part in parts[:2]):
        raise ConfigError(f"{path}: [tool.torchfix] {key} must be a torch version like "
                          f"\"2.4\", got {value!r}")
    return int(parts[0]), int(parts[1])


def _read_table(path: Path) -> dict[str, Any]:
    tomllib = _toml()
    try:
        with path.open("rb") as handle:
            document = tomllib.load(handle)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
    table = document.get("tool", {}).get("torchfix", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.torchfix] must be a table")
    return table


def _has_torchfix_table(path: Path) -> bool:
    try:
        raw = path.read_bytes()
    except OSError:
        return False
    if b"torchfix" not in raw:
        return False
    tomllib = _toml()
    try:
        document = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        # A broken file that seems to configure us must not be skipped silently.
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
    return isinstance(document.get("tool"), dict) and "torchfix" in document["tool"]


def _per_file_ignores(path: Path, value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: [tool.torchfix] per-file-ignores must be a table of "
                          'glob = [codemods], e.g. "tests/*" = ["assert-to-raise"]')
    checked = []
    for pattern, names in value.items():
        listed = tuple(_string_list(path, f"per-file-ignores.{pattern!r}", names))
        try:
            # Names, TorchFix codes (`TOR4`) and ALL, as the codemod names they stand for.
            listed = registry.select_names(listed)
        except registry.UnknownCodemodError as exc:
            raise ConfigError(f"{path}: [tool.torchfix] per-file-ignores {pattern!r}: "
                              f"{exc}") from exc
        checked.append((pattern.removeprefix("./"), listed))
    return tuple(checked)


@functools.cache
def _glob(pattern: str) -> re.Pattern[str]:
    """A ruff-style glob: `*` and `?` match within and across folders, `**/` any folders
    (none too), `[...]` a character class."""
    out = []
    index = 0
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        char = pattern[index]
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[" and "]" in pattern[index + 2:]:
            end = pattern.index("]", index + 2)
            body = pattern[index + 1:end]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            index = end
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out), re.DOTALL)


def _string_list(path: Path, key: str, value: Any) -> Sequence[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{path}: [tool.torchfix] {key} must be a list of strings")
    return value
