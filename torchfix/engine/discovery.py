"""Which files a run looks at, in which order.

Directories are walked without following symlinks, honouring `.gitignore` files (those of
the enclosing git repository above the directory too, and `.git/info/exclude`), the
configured excludes and a list of folders nobody wants rewritten (virtualenvs, caches,
build output). Files named explicitly are always processed: pre-commit passes filenames.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

# The head of a file in which an `@generated` marker counts: license headers come first.
GENERATED_HEAD_BYTES = 4096
GENERATED_MARKER = b"@generated"

DEFAULT_EXCLUDED_DIRS = frozenset(
    {
        ".bzr", ".direnv", ".eggs", ".git", ".hg", ".mypy_cache", ".nox", ".pants.d",
        ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".torchfix",
        ".torchfix_cache", ".venv", "__pycache__", "__pypackages__", "_build", "buck-out",
        "build", "dist", "node_modules", "site-packages", "venv",
    }
)
PYTHON_SUFFIXES = (".py",)


def is_generated(data: bytes) -> bool:
    """Whether the file marks itself `@generated` near its top (it will be overwritten)."""
    return GENERATED_MARKER in data[:GENERATED_HEAD_BYTES]


@dataclass(frozen=True)
class SourceFile:
    path: Path  # absolute, symlinks in the folder part resolved
    explicit: bool  # named on the command line rather than found in a folder


@dataclass
class Discovery:
    files: list[SourceFile] = field(default_factory=list)
    notices: list[tuple[Path, str]] = field(default_factory=list)  # passed over, with why
    errors: list[tuple[Path, str]] = field(default_factory=list)  # paths that do not exist


@dataclass(frozen=True)
class _IgnoreFile:
    base: Path
    spec: pathspec.GitIgnoreSpec

    def check(self, path: Path, is_dir: bool) -> bool | None:
        """True if ignored, False if re-included by a `!` pattern, None if not mentioned."""
        try:
            relative = path.relative_to(self.base).as_posix()
        except ValueError:
            return None
        return self.spec.check_file(relative + "/" if is_dir else relative).include


def discover(
    paths: Sequence[Path], excludes: Sequence[tuple[Path, Sequence[str]]] = ()
) -> Discovery:
    """Find the Python files under `paths`, sorted, each once.

    `excludes` holds gitignore-style patterns, each group anchored at its own folder
    (the configuration file's folder, or the current folder for command-line patterns).
    """
    result = Discovery()
    exclude_rules = _exclude_rules(excludes)
    seen: set[Path] = set()
    found: list[SourceFile] = []
    for given in paths:
        absolute = Path(os.path.abspath(given))
        if not os.path.lexists(absolute):
            result.errors.append((given, "no such file or directory"))
        elif absolute.is_dir():
            found.extend(_walk(absolute, exclude_rules, result))
        elif absolute.is_file():
            found.append(SourceFile(_resolve_parent(absolute), explicit=True))
        else:
            result.errors.append((given, "not a regular file or directory"))
    for source in found:
        key = source.path.resolve()
        if key not in seen:
            seen.add(key)
            result.files.append(source)
    result.files.sort(key=lambda source: str(source.path))
    return result


def is_excluded(path: Path, excludes: Sequence[tuple[Path, Sequence[str]]]) -> bool:
    """Whether an exclude pattern matches `path` or a folder above it (the file need not
    exist: text read from stdin is checked as if it were at `path`)."""
    rules = _exclude_rules(excludes)
    absolute = Path(os.path.abspath(path))
    candidates = [absolute, *absolute.parents]
    return any(
        rule.check(candidate, is_dir=candidate is not absolute)
        for rule in rules for candidate in candidates
    )


def _exclude_rules(excludes: Sequence[tuple[Path, Sequence[str]]]) -> list[_IgnoreFile]:
    return [
        _IgnoreFile(root.resolve(), pathspec.GitIgnoreSpec.from_lines(patterns))
        for root, patterns in excludes
        if patterns
    ]


def _resolve_parent(path: Path) -> Path:
    # Keep the file name (a symlinked file stays a symlink for the writer to handle) but
    # resolve the folders, so the same file is not found twice under two spellings.
    return path.parent.resolve() / path.name


def _walk(top: Path, excludes: list[_IgnoreFile], result: Discovery) -> Iterable[SourceFile]:
    top = top.resolve()
    ignore_files = _ancestor_ignore_files(top)
    stack: list[tuple[Path, list[_IgnoreFile]]] = [(top, ignore_files)]
    while stack:
        folder, inherited = stack.pop()
        rules = inherited + _ignore_files_in(folder)
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError as exc:
            result.errors.append((folder, f"cannot list folder: {exc.strerror or exc}"))
            continue
        for entry in entries:
            path = folder / entry.name
            if entry.is_symlink():
                _note_symlink(path, top, result)
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
            if is_dir and entry.name in DEFAULT_EXCLUDED_DIRS:
                continue
            if _ignored(path, is_dir, rules) or any(rule.check(path, is_dir) for rule in excludes):
                continue
            if is_dir:
                stack.append((path, rules))
            elif entry.name.endswith(PYTHON_SUFFIXES) and entry.is_file(follow_symlinks=False):
                yield SourceFile(path, explicit=False)


def _note_symlink(path: Path, top: Path, result: Discovery) -> None:
    """Symlinks are never followed; one that leaves the tree is worth a word."""
    target = path.resolve()
    if not target.is_relative_to(top) and (target.is_dir() or target.suffix in PYTHON_SUFFIXES):
        result.notices.append((path, f"symlink to {target}, outside the tree; not followed"))


def _ignored(path: Path, is_dir: bool, rules: list[_IgnoreFile]) -> bool:
    verdict: bool | None = None
    for rule in rules:  # outermost first; a deeper .gitignore has the last word
        decision = rule.check(path, is_dir)
        if decision is not None:
            verdict = decision
    return bool(verdict)


def _ignore_files_in(folder: Path) -> list[_IgnoreFile]:
    gitignore = folder / ".gitignore"
    if not gitignore.is_file():
        return []
    return [_IgnoreFile(folder, _read_spec(gitignore))]


def _ancestor_ignore_files(top: Path) -> list[_IgnoreFile]:
    """The .gitignore rules above `top` in its git repository that can apply below it.

    Patterns that would ignore `top` itself are dropped: a folder named on the command
    line is always walked (its contents still follow the rules).
    """
    repo_root = next((p for p in (top, *top.parents) if (p / ".git").exists()), None)
    if repo_root is None:
        return []
    rules: list[_IgnoreFile] = []
    info_exclude = repo_root / ".git" / "info" / "exclude"
    if info_exclude.is_file():
        rules.append(_IgnoreFile(repo_root, _read_spec(info_exclude)))
    folder = repo_root
    for part in top.relative_to(repo_root).parts:
        rules.extend(_ignore_files_in(folder))
        folder = folder / part
    return [_without_patterns_matching(rule, top) for rule in rules]


def _without_patterns_matching(rule: _IgnoreFile, top: Path) -> _IgnoreFile:
    relative = top.relative_to(rule.base).as_posix() + "/"
    kept = [
        pattern
        for pattern in rule.spec.patterns
        if not (pattern.include and pattern.match_file(relative) is not None)
    ]
    return _IgnoreFile(rule.base, pathspec.GitIgnoreSpec(kept))


def _read_spec(path: Path) -> pathspec.GitIgnoreSpec:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    return pathspec.GitIgnoreSpec.from_lines(lines)
