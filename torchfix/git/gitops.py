"""Git-ready output: patch series, commits on a branch, pushes (gitpython + git plumbing).

Commits are built without touching the working tree, the index or any ref: each step's
files are hashed into blobs, staged in a temporary index (GIT_INDEX_FILE) on top of the
parent commit, written as a tree and committed with `commit-tree`. Only then, for
`--commit`, does a single `git checkout -b` (or a fast-forward on a branch torchfix made)
move the user onto the result, which leaves every file we did not rewrite exactly as it
was, staged or not. Patch series go one step further and keep even the objects out of the
repository: they are written to a temporary object store that borrows the repository's
objects as alternates, and `git format-patch` reads them from there.

Safety rules, enforced here rather than trusted to callers: no force pushes (refspecs
never carry `+`), no existing commit is rewritten (branches only move forward), and no
branch is touched that torchfix did not create (it records `branch.<name>.torchfix-base`
in the repository's config when it creates one; git drops that with the branch). A value
from the user (a remote, a URL, a branch) never reaches git where it could be read as an
option: `--` comes before positional values, and remotes starting with `-` or naming a
transport that runs commands (`ext::`) are refused.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import re
import shutil
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import git

from torchfix.engine.pipeline import RunOutcome
from torchfix.engine.results import FileResult
from torchfix.engine.writing import WriteError, create_file, remove_file, write_atomically
from torchfix.git.stages import FileEdit, SplitProblem, Step, by_codemod, squashed
from torchfix.git.verify_command import VerifyCommandError, VerifyRun, VerifySpec, run_verify
from torchfix.output.report import counted
from torchfix.rewrite import registry

TRAILER = "Torchfix-Codemod"
BRANCH_PREFIX = "torchfix/"
BASE_KEY = "torchfix-base"  # branch.<name>.torchfix-base: the commit torchfix branched from
FROM_KEY = "torchfix-from"  # branch.<name>.torchfix-from: the branch it branched from
# Commit messages list at most this many changes per codemod; the diff has the rest.
MAX_LISTED_CHANGES = 100
# Network commands must fail, not wait for a password nobody will type (batch runs), and
# may only use transports that move data: `ext::` and other remote helpers run commands.
NO_PROMPT_ENV = {"GIT_TERMINAL_PROMPT": "0", "GCM_INTERACTIVE": "never",
                 "GIT_ALLOW_PROTOCOL": "file:git:http:https:ssh"}
# `<transport>::<address>` (git's remote helpers) and `ext://`: gitpython's own test.
_COMMAND_TRANSPORT = re.compile(r"([A-Za-z0-9][A-Za-z0-9+.-]*|)::|ext://", re.IGNORECASE)
REGULAR_FILE_MODES = (0o100644, 0o100755)


class GitError(Exception):
    """A git operation that cannot be done or failed; the message is one line for users.

    `usage` marks problems with how torchfix was invoked or the state it was invoked in
    (exit code 2): not a repository, detached HEAD, a dirty tree, a branch in the way.
    """

    def __init__(self, message: str, *, usage: bool = False) -> None:
        super().__init__(message)
        self.usage = usage


# -- identity ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Identity:
    """A git author or committer."""

    name: str
    email: str

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"


def parse_identity(text: str) -> Identity:
    """`Name <email>`, as git writes it (a usage error otherwise)."""
    match = re.fullmatch(r"\s*([^<>]*?)\s*<([^<>\s]+)>\s*", text)
    if match is None or not match.group(1):
        raise GitError(f"--author must look like 'Name <email>', not {text!r}", usage=True)
    return Identity(match.group(1), match.group(2))


# -- the repository ----------------------------------------------------------------------


class Repository:
    """A git working tree, through gitpython; plumbing calls go through `git()`."""

    def __init__(self, repo: git.Repo) -> None:
        self.repo = repo
        if repo.working_tree_dir is None:
            raise GitError(f"{repo.git_dir} is a bare repository; torchfix needs a working "
                           "tree", usage=True)
        self.root = Path(repo.working_tree_dir).resolve()

    @classmethod
    def open(cls, path: Path) -> Repository:
        folder = path if path.is_dir() else path.parent
        try:
            repo = git.Repo(folder, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise GitError(f"not a git repository: {path}", usage=True) from None
        return cls(repo)

    def __repr__(self) -> str:
        return f"Repository({self.root})"

    # plumbing --------------------------------------------------------------------------

    def run_git(
        self, *args: str, input: bytes | None = None, env: Mapping[str, str] | None = None
    ) -> tuple[int, bytes, str]:
        """Run `git ARGS` in the repository root: (exit status, stdout, stderr)."""
        command = [git.Git.GIT_PYTHON_GIT_EXECUTABLE, *args]
        with _stdin(input) as stdin:
            status, out, err = self.repo.git.execute(
                command,
                istream=stdin,
                with_extended_output=True,
                with_exceptions=False,
                stdout_as_string=False,
                strip_newline_in_stdout=False,
                env=dict(env) if env else None,
            )
        assert isinstance(out, bytes)
        return status, out, str(err or "")

    def git_bytes(
        self, *args: str, input: bytes | None = None, env: Mapping[str, str] | None = None
    ) -> bytes:
        """Run `git ARGS` in the repository root; raise GitError with git's own reason."""
        status, out, err = self.run_git(*args, input=input, env=env)
        if status != 0:
            raise GitError(f"git {_subcommand(args)} failed: {_reason(err) or f'exit {status}'}")
        return out

    def git(self, *args: str, input: bytes | None = None,
            env: Mapping[str, str] | None = None) -> str:
        return os.fsdecode(self.git_bytes(*args, input=input, env=env)).rstrip("\n")

    def try_git(self, *args: str, env: Mapping[str, str] | None = None) -> str | None:
        """`git ARGS`, or None when it exits non-zero (for questions such as --verify)."""
        try:
            return self.git(*args, env=env)
        except GitError:
            return None

    # state -----------------------------------------------------------------------------

    def head(self) -> str:
        sha = self.try_git("rev-parse", "--verify", "-q", "HEAD^{commit}")
        if not sha:
            raise GitError(f"{self.root} has no commits yet; commit something first",
                           usage=True)
        return sha

    def branch(self) -> str | None:
        """The checked-out branch, or None on a detached HEAD."""
        return self.try_git("symbolic-ref", "-q", "--short", "HEAD") or None

    def require_branch(self) -> str:
        name = self.branch()
        if name is None:
            raise GitError(f"detached HEAD in {self.root}: check out a branch first (torchfix "
                           "branches off it)", usage=True)
        return name

    def branch_tip(self, name: str) -> str | None:
        return self.try_git("rev-parse", "--verify", "-q", f"refs/heads/{name}^{{commit}}")

    def config(self, key: str) -> str | None:
        return self.try_git("config", "--get", "--", key) or None

    def tree_of(self, revision: str) -> str:
        return self.git("rev-parse", f"{revision}^{{tree}}")

    def is_ancestor(self, ancestor: str, descendant: str) -> bool:
        return self.try_git("merge-base", "--is-ancestor", "--", ancestor,
                            descendant) is not None

    def has_object(self, sha: str) -> bool:
        return self.try_git("cat-file", "-e", "--", f"{sha}^{{commit}}") is not None

    def dirty_paths(self) -> set[str]:
        """Tracked paths whose index or working-tree state differs from HEAD."""
        # --no-optional-locks: asking must not rewrite the index (status refreshes it).
        out = self.git_bytes("--no-optional-locks", "status", "--porcelain=v1", "-z",
                             "--untracked-files=no")
        paths: set[str] = set()
        entries = iter(out.split(b"\0"))
        for entry in entries:
            if not entry:
                continue
            paths.add(os.fsdecode(entry[3:]))
            if entry[:1] in (b"R", b"C"):  # a rename or copy: its source path follows
                paths.add(os.fsdecode(next(entries, b"")))
        paths.discard("")
        return paths

    def identity(self, override: Identity | None = None) -> tuple[Identity, Identity]:
        """(author, committer) as git would use them; never guessed from the host name."""
        author = override or self._identity("AUTHOR", "author")
        committer = self._identity("COMMITTER", "committer") or author
        if author is None or committer is None:
            raise GitError(
                f"no git identity is configured for {self.root}: set one with "
                "`git config user.name 'Your Name'` and `git config user.email you@example.com`"
                ", or pass --author 'Name <email>'",
                usage=True,
            )
        return author, committer

    def _identity(self, env_role: str, config_role: str) -> Identity | None:
        name = (os.environ.get(f"GIT_{env_role}_NAME") or self.config(f"{config_role}.name")
                or self.config("user.name"))
        email = (os.environ.get(f"GIT_{env_role}_EMAIL") or self.config(f"{config_role}.email")
                 or self.config("user.email") or os.environ.get("EMAIL"))
        return Identity(name, email) if name and email else None

    def objects_dir(self) -> Path:
        path = Path(self.git("rev-parse", "--git-path", "objects"))
        return path if path.is_absolute() else (self.root / path).resolve()

    # branches made by torchfix ------------------------------------------------------------

    def torchfix_base(self, branch: str) -> str | None:
        """The commit torchfix created `branch` from, if torchfix created it (else None)."""
        base = self.config(f"branch.{branch}.{BASE_KEY}")
        tip = self.branch_tip(branch)
        if base is None or tip is None or not self.is_ancestor(base, tip):
            return None
        return base

    def check_branch_name(self, name: str) -> None:
        if self.try_git("check-ref-format", "--branch", name) is None:
            raise GitError(f"invalid branch name: {name!r}", usage=True)


def remote_problem(value: str) -> str | None:
    """Why `value` cannot be a remote name or URL to hand to git; None if it can."""
    if value.startswith("-"):
        return f"{value!r} starts with '-', which git would read as an option"
    if _COMMAND_TRANSPORT.match(value):
        return f"{value!r} uses a git transport that runs commands (ext::, <helper>::)"
    return None


def check_remote(value: str) -> None:
    problem = remote_problem(value)
    if problem is not None:
        raise GitError(f"refused remote {problem}", usage=True)


def network_env() -> dict[str, str]:
    """Environment for clone, ls-remote and push: fail rather than prompt for credentials."""
    env = dict(NO_PROMPT_ENV)
    if "GIT_SSH_COMMAND" not in os.environ:
        env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
    return env


@contextlib.contextmanager
def _stdin(data: bytes | None) -> Iterator[object]:
    # gitpython hands `istream` to Popen as stdin, which needs a real file descriptor.
    if data is None:
        yield None
        return
    with tempfile.TemporaryFile() as handle:
        handle.write(data)
        handle.seek(0)
        yield handle


def _subcommand(args: Sequence[str]) -> str:
    """`commit-tree` in `git -c core.x=y commit-tree ...`, for error messages."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-c":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return args[0] if args else ""


def _reason(stderr: object) -> str:
    """The line of git's stderr that says what went wrong."""
    text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else str(stderr or "")
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for prefix in ("fatal:", "error:"):
        for line in lines:
            if line.startswith(prefix):
                return line[len(prefix):].strip()
    return lines[-1] if lines else ""


# -- which changed files can go into a commit ----------------------------------------------


@dataclass
class Selection:
    """The changed files that can be committed, and those left out with why."""

    results: list[FileResult] = field(default_factory=list)
    names: dict[Path, str] = field(default_factory=dict)
    modes: dict[str, int] = field(default_factory=dict)
    left_out: list[tuple[Path, str]] = field(default_factory=list)

    def name_of(self, path: Path) -> str:
        return self.names[path]


def select_committable(
    repository: Repository, results: Sequence[FileResult], base: str, dirty: set[str]
) -> Selection:
    """Changed files that HEAD tracks as regular files and the user has not modified.

    Anything else stays out of commits and patches: a file with uncommitted edits (we
    would commit the user's work, or write a patch that does not apply to HEAD), an
    untracked file, a file outside the repository or tracked as a symlink.
    """
    selection = Selection()
    tree = repository.repo.commit(base).tree
    for result in results:
        if not result.changed:
            continue
        name = Path(os.path.relpath(result.path, repository.root)).as_posix()
        if name.startswith("../"):
            selection.left_out.append((result.path, f"outside the repository {repository.root}"))
            continue
        if name in dirty:
            selection.left_out.append((result.path, "has uncommitted changes"))
            continue
        if result.created_by is not None:  # a new file a fix needs: git has none there
            selection.results.append(result)
            selection.names[result.path] = name
            selection.modes[name] = REGULAR_FILE_MODES[0]
            continue
        try:
            entry = tree / name
        except KeyError:
            selection.left_out.append((result.path, "not committed to git (untracked)"))
            continue
        if entry.type != "blob" or entry.mode not in REGULAR_FILE_MODES:
            selection.left_out.append((result.path, "not a regular file in git"))
            continue
        selection.results.append(result)
        selection.names[result.path] = name
        selection.modes[name] = entry.mode
    return selection


def plan_steps(
    selection: Selection, outcome: RunOutcome, squash: bool
) -> tuple[list[Step], list[SplitProblem]]:
    if squash:
        return squashed(selection.results, outcome.settings, selection.name_of), []
    from torchfix.model.project import Project

    # the run's project, as the combined run read it (the root's torch floor)
    project = Project(outcome.root, configured_min_torch=outcome.config.min_torch,
                      codemod_loader=registry.load)
    return by_codemod(selection.results, outcome.settings, selection.name_of, project)


# -- commit messages -----------------------------------------------------------------------


def codemod_summary(name: str) -> str:
    try:
        return registry.get(name).summary.rstrip(".")
    except registry.UnknownCodemodError:
        return name


def rationale(name: str) -> str:
    """The "why" of a codemod, from the "## Why" section of its documentation."""
    try:
        doc = inspect.getdoc(registry.get(name)) or ""
    except registry.UnknownCodemodError:
        return ""
    match = re.search(r"^##+\s*Why[^\n]*\n(.*?)(?=^##|\Z)", doc, re.S | re.M)
    text = match.group(1).strip() if match else ""
    return _wrap(text) if text else ""


def _wrap(text: str, width: int = 72) -> str:
    """Re-wrap plain paragraphs to git's 72 columns; leave code and lists as written."""
    paragraphs = re.split(r"\n\s*\n", text)
    wrapped = []
    for paragraph in paragraphs:
        lines = paragraph.splitlines()
        if any(line.startswith(("```", "    ", "- ", "* ", "|")) for line in lines):
            wrapped.append(paragraph)
        else:
            wrapped.append(textwrap.fill(" ".join(line.strip() for line in lines), width))
    return "\n\n".join(wrapped)



def subject(step: Step) -> str:
    if len(step.codemods) == 1:
        return f"torchfix: {codemod_summary(step.codemods[0])}"
    return f"torchfix: apply {len(step.codemods)} codemods ({', '.join(step.codemods)})"


def commit_message(step: Step) -> str:
    """Subject, why (per codemod), the list of changes, and one trailer per codemod."""
    parts = [subject(step)]
    for codemod in step.codemods:
        section = []
        if len(step.codemods) > 1:
            section.append(f"[{codemod}] {codemod_summary(codemod)}")
        why = rationale(codemod)
        if why:
            section.append(why)
        changes = sorted(step.changes_of(codemod), key=lambda ec: (ec[0].name, ec[1].line))
        listed = [f"- {edit.name}:{change.line}: {change.message}"
                  for edit, change in changes[:MAX_LISTED_CHANGES]]
        if len(changes) > MAX_LISTED_CHANGES:
            listed.append(f"- ... and {len(changes) - MAX_LISTED_CHANGES} more (see the diff)")
        listed += [f"- {edit.name}: new file, needed by these changes"
                   for edit in step.edits if edit.created_by == codemod]
        section.append(f"Changes ({counted(len(changes), 'change')} in "
                       f"{counted(step.files_of(codemod), 'file')}):\n" + "\n".join(listed))
        parts.append("\n\n".join(section))
    trailers = [
        f"{TRAILER}: {codemod} ({counted(len(step.changes_of(codemod)), 'change')} in "
        f"{counted(step.files_of(codemod), 'file')})"
        for codemod in step.codemods
    ]
    parts.append("\n".join(trailers))
    return "\n\n".join(parts) + "\n"


@dataclass(frozen=True)
class CodemodCount:
    """How many changes a codemod made, in how many files."""

    codemod: str
    changes: int
    files: int


_TRAILER_LINE = re.compile(
    rf"^{TRAILER}: (?P<name>\S+) \((?P<changes>\d+) changes? in (?P<files>\d+) files?\)$",
    re.M,
)


def parse_trailers(message: str) -> list[CodemodCount]:
    return [
        CodemodCount(m.group("name"), int(m.group("changes")), int(m.group("files")))
        for m in _TRAILER_LINE.finditer(message)
    ]


# -- building commits ----------------------------------------------------------------------


@dataclass(frozen=True)
class BuiltCommit:
    """A commit made for one step (a codemod, or all of them squashed)."""

    sha: str
    step: Step
    message: str

    @property
    def subject(self) -> str:
        return self.message.splitlines()[0]


class CommitBuilder:
    """Makes commit objects from in-memory file states; touches no working tree, index or
    ref. With `private_objects`, even the objects stay out of the repository."""

    def __init__(
        self,
        repository: Repository,
        author: Identity,
        committer: Identity,
        *,
        private_objects: bool = False,
        sign: bool = True,
    ) -> None:
        self.repository = repository
        self.author = author
        self.committer = committer
        self.private_objects = private_objects
        self.sign = sign
        self._temp: tempfile.TemporaryDirectory[str] | None = None
        self.env: dict[str, str] = {}

    def __enter__(self) -> CommitBuilder:
        self._temp = tempfile.TemporaryDirectory(prefix="torchfix-git-")
        temp = Path(self._temp.name)
        stamp = f"{int(time.time())} {time.strftime('%z')}"
        self.env = {
            "GIT_INDEX_FILE": str(temp / "index"),
            "GIT_AUTHOR_NAME": self.author.name,
            "GIT_AUTHOR_EMAIL": self.author.email,
            "GIT_AUTHOR_DATE": stamp,
            "GIT_COMMITTER_NAME": self.committer.name,
            "GIT_COMMITTER_EMAIL": self.committer.email,
            "GIT_COMMITTER_DATE": stamp,
        }
        if self.private_objects:
            objects = temp / "objects"
            (objects / "info").mkdir(parents=True)
            (objects / "pack").mkdir()
            self.env["GIT_OBJECT_DIRECTORY"] = str(objects)
            self.env["GIT_ALTERNATE_OBJECT_DIRECTORIES"] = str(self.repository.objects_dir())
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._temp is not None:
            self._temp.cleanup()

    @property
    def temp_dir(self) -> Path:
        assert self._temp is not None, "use CommitBuilder as a context manager"
        return Path(self._temp.name)

    def git(self, *args: str, input: bytes | None = None) -> str:
        # A temporary index must not become a split index with files left in .git.
        return self.repository.git("-c", "core.splitIndex=false", *args, input=input,
                                   env=self.env)

    def build(
        self, base: str, steps: Sequence[Step], modes: Mapping[str, int]
    ) -> list[BuiltCommit]:
        """One commit per step, each on the previous one, the first on `base`."""
        self.git("read-tree", base)
        parent = base
        commits = []
        for step in steps:
            entries = b"".join(
                f"{modes[edit.name]:o} {self._blob(edit)}\t".encode()
                + os.fsencode(edit.name) + b"\0"
                for edit in step.edits
            )
            self.git("update-index", "-z", "--index-info", input=entries)
            tree = self.git("write-tree")
            message = commit_message(step)
            args = ["commit-tree", tree, "-p", parent, "-F", "-"]
            if not self.sign:
                args.insert(1, "--no-gpg-sign")
            parent = self.git(*args, input=message.encode())
            commits.append(BuiltCommit(parent, step, message))
        return commits

    def _blob(self, edit: FileEdit) -> str:
        # --path applies the file's clean filters (eol conversion, ...), as `git add` would:
        # the engine saw the working-tree bytes, the blob must hold the repository's form.
        return self.git("hash-object", "-w", "--stdin", f"--path={edit.name}",
                        input=edit.after)


# -- patch series ----------------------------------------------------------------------------


@dataclass
class PatchResult:
    """What `apply --patch-dir` wrote, and the files it left out."""

    root: Path
    base: str
    files: list[Path] = field(default_factory=list)
    commits: list[BuiltCommit] = field(default_factory=list)
    left_out: list[tuple[Path, str]] = field(default_factory=list)
    problems: list[SplitProblem] = field(default_factory=list)


@dataclass(frozen=True)
class PatchPreflight:
    """What writing patches needs, checked before any work is done."""

    repository: Repository
    base: str
    author: Identity
    committer: Identity
    out_dir: Path


def patch_preflight(repository: Repository, out_dir: Path,
                    author: Identity | None = None) -> PatchPreflight:
    """Refuse before any file is read: no commit, no identity, a folder of other patches."""
    base = repository.head()
    author_id, committer_id = repository.identity(author)
    _check_patch_dir(out_dir)
    return PatchPreflight(repository, base, author_id, committer_id, out_dir)


def write_patch_series(pre: PatchPreflight, outcome: RunOutcome, *,
                       squash: bool = False) -> PatchResult:
    """`git format-patch` files, one per codemod, that `git am` applies on HEAD."""
    repository, base, out_dir = pre.repository, pre.base, pre.out_dir
    dirty = repository.dirty_paths()
    selection = select_committable(repository, outcome.results, base, dirty)
    steps, problems = plan_steps(selection, outcome, squash)
    result = PatchResult(repository.root, base, left_out=selection.left_out, problems=problems)
    if not steps:
        return result
    with CommitBuilder(repository, pre.author, pre.committer, private_objects=True,
                       sign=False) as builder:
        result.commits = builder.build(base, steps, selection.modes)
        staging = builder.temp_dir / "patches"
        listing = builder.git(
            "format-patch", "--no-cover-letter", "--no-signature", "--no-attach", "--no-thread",
            "--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/",
            "-o", str(staging), f"{base}..{result.commits[-1].sha}", "--",
        )
        written = [Path(line) for line in listing.splitlines() if line.strip()]
        if len(written) != len(result.commits):
            raise GitError(f"git format-patch wrote {len(written)} patches for "
                           f"{len(result.commits)} commits")
        out_dir.mkdir(parents=True, exist_ok=True)
        _remove_old_patches(out_dir)
        for number, (commit, path) in enumerate(zip(result.commits, written, strict=True), 1):
            label = commit.step.codemods[0] if len(commit.step.codemods) == 1 else "torchfix"
            target = out_dir / f"{number:04d}-{label}.patch"
            shutil.move(str(path), target)
            result.files.append(target)
    return result


def _is_torchfix_patch(path: Path) -> bool:
    try:
        return f"\n{TRAILER}: ".encode() in path.read_bytes()
    except OSError:
        return False


def _check_patch_dir(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise GitError(f"--patch-dir {out_dir} is not a folder", usage=True)
    if out_dir.is_dir():
        foreign = [p for p in out_dir.glob("*.patch") if not _is_torchfix_patch(p)]
        if foreign:
            raise GitError(f"--patch-dir {out_dir} already holds patches torchfix did not "
                           f"write ({foreign[0].name}); choose an empty folder", usage=True)


def _remove_old_patches(out_dir: Path) -> None:
    # A second run replaces the previous series; `git am DIR/*.patch` must not pick up
    # patches from an earlier, longer series.
    for path in out_dir.glob("*.patch"):
        if _is_torchfix_patch(path):
            path.unlink()


# -- commits on a branch ---------------------------------------------------------------------


@dataclass(frozen=True)
class CommitOptions:
    """How `apply --commit` (and batch) commits: branch, squash, identity, verification."""

    branch: str | None = None
    squash: bool = False
    allow_dirty: bool = False
    author: Identity | None = None
    verify: VerifySpec | None = None


@dataclass
class Preflight:
    """The repository's state, checked before any file is read."""

    repository: Repository
    base: str  # HEAD
    current: str  # the checked-out branch
    author: Identity
    committer: Identity
    dirty: set[str]
    current_base: str | None  # when torchfix made the current branch: where it branched


def preflight(repository: Repository, options: CommitOptions) -> Preflight:
    """Refuse early what would fail late: detached HEAD, no identity, a dirty tree."""
    current = repository.require_branch()
    base = repository.head()
    author, committer = repository.identity(options.author)
    if options.branch is not None:
        repository.check_branch_name(options.branch)
    dirty = repository.dirty_paths()
    if dirty and not options.allow_dirty:
        raise GitError(
            f"{repository.root} has uncommitted changes ({counted(len(dirty), 'file')}); commit "
            "or stash them, or pass --allow-dirty (torchfix then leaves those files alone)",
            usage=True,
        )
    return Preflight(repository, base, current, author, committer, dirty,
                     repository.torchfix_base(current))


@dataclass
class CommitResult:
    """What `apply --commit` did."""

    root: Path
    status: str  # committed | nothing | up-to-date | verify-failed
    branch: str | None = None
    from_branch: str | None = None
    base: str | None = None  # where the branch starts (for PR descriptions)
    created: bool = False
    commits: list[BuiltCommit] = field(default_factory=list)
    left_out: list[tuple[Path, str]] = field(default_factory=list)
    problems: list[SplitProblem] = field(default_factory=list)
    verify_before: VerifyRun | None = None
    verify_after: VerifyRun | None = None
    note: str = ""

    @property
    def codemods(self) -> list[str]:
        return [name for commit in self.commits for name in commit.step.codemods]


def default_branch_name(codemods: Sequence[str], today: date | None = None) -> str:
    """`torchfix/<codemods>` for up to three codemods, else `torchfix/<date>`."""
    if 1 <= len(codemods) <= 3:
        return BRANCH_PREFIX + "+".join(codemods)
    return BRANCH_PREFIX + (today or date.today()).isoformat()


def commit_rewrite(
    pre: Preflight,
    outcome: RunOutcome,
    options: CommitOptions,
    progress: Callable[[str], None] = lambda _message: None,
) -> CommitResult:
    """Commit the run's changes on a branch; see the module docstring for the rules."""
    repository = pre.repository
    selection = select_committable(repository, outcome.results, pre.base, pre.dirty)
    steps, problems = plan_steps(selection, outcome, options.squash)
    result = CommitResult(repository.root, "nothing", left_out=selection.left_out,
                          problems=problems, from_branch=pre.current)
    on_own_branch = pre.current_base is not None
    if not steps:
        if on_own_branch and options.branch in (None, pre.current):
            result.status, result.branch, result.base = "up-to-date", pre.current, pre.current_base
            result.from_branch = repository.config(f"branch.{pre.current}.{FROM_KEY}")
        return result

    used = [name for step in steps for name in step.codemods]
    target = options.branch or (pre.current if on_own_branch else default_branch_name(used))
    extend = target == pre.current
    if extend and not on_own_branch:
        raise GitError(f"branch {target} was not created by torchfix; not touched (choose a "
                       "new branch with --branch)", usage=True)
    existing = None if extend else repository.branch_tip(target)

    with CommitBuilder(repository, pre.author, pre.committer) as builder:
        commits = builder.build(pre.base, steps, selection.modes)
    tip = commits[-1].sha
    result.branch = target
    if existing is not None:
        made_by_us = repository.torchfix_base(target) is not None
        if made_by_us and repository.tree_of(existing) == repository.tree_of(tip):
            result.status = "up-to-date"
            result.base = repository.torchfix_base(target)
            result.from_branch = repository.config(f"branch.{target}.{FROM_KEY}")
            result.note = f"branch {target} already holds these changes"
            return result
        hint = ("it was made by torchfix from another state; switch to it to add to it, or"
                if made_by_us else "it was not created by torchfix;")
        raise GitError(f"branch {target} already exists ({hint} choose another name with "
                       "--branch)", usage=True)
    result.commits = commits
    result.base = pre.current_base if extend else pre.base
    if not extend:
        result.from_branch = pre.current
    else:
        result.from_branch = repository.config(f"branch.{pre.current}.{FROM_KEY}")

    if options.verify is not None:
        progress(f"verifying with {options.verify.command!r}")
        passed = _verify(repository, options.verify, steps, result)
        if not passed:
            result.status = "verify-failed"
            return result

    if extend:
        repository.git("merge", "--ff-only", "-q", "--", tip)
    else:
        repository.git("checkout", "-q", "--no-track", "-b", target, tip, "--")
        repository.git("config", "--", f"branch.{target}.{BASE_KEY}", pre.base)
        repository.git("config", "--", f"branch.{target}.{FROM_KEY}", pre.current)
        result.created = True
    result.status = "committed"
    return result


def final_states(steps: Sequence[Step]) -> list[tuple[Path, bytes | None, bytes]]:
    """(path, first state, last state) of every file the steps touch; the first state is
    None for a file the steps create."""
    first: dict[Path, bytes | None] = {}
    last: dict[Path, bytes] = {}
    for step in steps:
        for edit in step.edits:
            first.setdefault(edit.path, None if edit.created_by is not None else edit.before)
            last[edit.path] = edit.after
    return [(path, first[path], last[path]) for path in first]


def _verify(repository: Repository, spec: VerifySpec, steps: Sequence[Step],
            result: CommitResult) -> bool:
    """Run the check before and after writing the rewrite; put the files back either way.

    Returns whether the changes may be committed: yes when the check passes after the
    rewrite, and also when it already failed before (then it says nothing about us).
    """
    try:
        before = run_verify(spec, repository.root)
    except VerifyCommandError as exc:
        raise GitError(str(exc), usage=True) from exc
    result.verify_before = before
    if before.timed_out:
        raise GitError(f"verify timed out after {spec.timeout:g}s before the rewrite; nothing "
                       "committed (raise --verify-timeout?)")
    if not before.passed:
        result.note = (f"verify already {before.describe(spec.timeout)} before the rewrite, so "
                       "it cannot judge it; committed without its approval")
        return True
    states = final_states(steps)
    with _rewritten(states):
        after = run_verify(spec, repository.root)
    result.verify_after = after
    return after.passed


@contextlib.contextmanager
def _rewritten(states: Sequence[tuple[Path, bytes | None, bytes]]) -> Iterator[None]:
    """Write the new states for the duration of the block, then the old ones back (a
    file created for the block is removed)."""
    written: list[tuple[Path, bytes | None, bytes]] = []
    try:
        for path, old, new in states:
            if old is None:
                create_file(path, new)
            else:
                write_atomically(path, old, new)
            written.append((path, old, new))
        yield
    except WriteError as exc:
        raise GitError(f"cannot write the rewrite to verify it: {exc}") from exc
    finally:
        failures = []
        for path, old, new in reversed(written):
            try:
                if old is None:
                    remove_file(path, new)
                else:
                    write_atomically(path, new, old)
            except WriteError as exc:
                failures.append(f"{path}: {exc}")
        if failures:
            raise GitError("could not restore files after verifying (the verify command "
                           f"changed them?): {failures[0]}")


# -- pushing -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PushResult:
    """What pushing a branch did."""

    status: str  # pushed | up-to-date | already-there
    detail: str


def push_branch(repository: Repository, remote: str, branch: str, base: str) -> PushResult:
    """Push `branch` to `remote` as a fast-forward, never with force.

    A branch of the same name on the remote is only moved if it is one of the commits
    torchfix made on this branch (an earlier push of it); anything else is left alone.
    """
    check_remote(remote)
    tip = repository.git("rev-parse", f"refs/heads/{branch}")
    try:
        listing = repository.git("ls-remote", "--heads", "--", remote, f"refs/heads/{branch}",
                                 env=network_env())
    except GitError as exc:
        raise GitError(f"cannot reach remote {remote}: {str(exc).split(': ', 1)[-1]}") from exc
    wanted = f"refs/heads/{branch}"
    remote_tip = next((line.split()[0] for line in listing.splitlines()
                       if line.split()[1:] == [wanted]), None)
    if remote_tip == tip:
        return PushResult("up-to-date", f"{remote} is up to date")
    if remote_tip is not None:
        ours = set(repository.git("rev-list", f"{base}..{tip}", "--").split())
        if remote_tip not in ours:
            if (repository.has_object(remote_tip)
                    and repository.tree_of(remote_tip) == repository.tree_of(tip)):
                return PushResult("already-there", f"{remote} already has these changes on "
                                                   f"{branch}; not pushed")
            raise GitError(f"push refused: {remote} already has a branch {branch} that this "
                           "one does not build on; nothing was force-pushed (delete it there "
                           "or choose another name with --branch)")
    refspec = f"{wanted}:{wanted}"  # no leading "+": never forced
    status, out, err = repository.run_git("push", "--porcelain", "--", remote, refspec,
                                          env=network_env())
    if status != 0:
        raise GitError(f"push to {remote} rejected: {_push_reason(out, err)}")
    how = "new branch" if remote_tip is None else "fast-forward"
    return PushResult("pushed", f"pushed to {remote} ({how})")


def _push_reason(out: bytes, err: str) -> str:
    """Why git (or the remote's hooks) refused a push, in one line."""
    reasons = []
    for line in os.fsdecode(out).splitlines():  # "!<TAB>src:dst<TAB>[rejected] (why)"
        fields = line.split("\t")
        if len(fields) >= 3 and fields[0] == "!":
            reasons.append(fields[2])
    remote_lines = [line.removeprefix("remote:").strip() for line in err.splitlines()
                    if line.startswith("remote:") and line.removeprefix("remote:").strip()]
    reasons += remote_lines[-2:]  # what the server's hook printed, if anything
    return "; ".join(reasons) or _reason(err) or "unknown reason"


# -- describing a branch -----------------------------------------------------------------------


@dataclass(frozen=True)
class LoggedCommit:
    """A commit as `git log` shows it."""

    sha: str
    message: str

    @property
    def subject(self) -> str:
        return self.message.splitlines()[0] if self.message else ""


def branch_commits(repository: Repository, base: str, tip: str) -> list[LoggedCommit]:
    out = repository.git("log", "--reverse", "-z", "--format=%H%n%B", f"{base}..{tip}", "--")
    commits = []
    for entry in out.split("\0"):
        entry = entry.strip("\n")
        if entry:
            sha, _, message = entry.partition("\n")
            commits.append(LoggedCommit(sha, message.strip() + "\n"))
    return commits


def diffstat(repository: Repository, base: str, tip: str) -> str:
    return repository.git("diff", "--no-color", "--no-ext-diff", "--stat=100", base, tip, "--")


def open_for_paths(paths: Sequence[Path]) -> Repository:
    """The one repository that holds every path (a usage error otherwise)."""
    absolute = [Path(os.path.abspath(path)) for path in paths]
    repository = Repository.open(absolute[0])
    for path in absolute:
        if not path.resolve().is_relative_to(repository.root):
            raise GitError(f"{path} is not in the repository {repository.root} (one "
                           "repository at a time; `torchfix batch` handles several)",
                           usage=True)
    return repository
