"""`torchfix batch`: the same migration across many repositories, one branch (and pull
request) each.

For every target — a local repository, or a clone URL cloned into the work folder — the
steps are those of `apply --commit`: check the repository, run the engine with that
repository's own configuration (never one found above its root) plus the batch's
command-line options, commit on a new branch, optionally verify, push and describe the
change as a pull request. Every failure is caught and reported as that repository's
outcome, so one bad repository never stops the others.

The work is split in two. `process_target` does everything that happens inside the
repository (clone, rewrite, verify, commit, PR text) as a function of plain, picklable
inputs and returns plain data, so an executor (`batch_executors`) may run it on a thread
or on another machine. `finish_target` then pushes and opens the pull request on the
driver, one repository at a time: git hosts throttle, and only the driver can pace all
repositories together (`max_pushes_per_minute`). A worker that dies before it returns
has pushed nothing.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType

import git
from rich.table import Table
from rich.text import Text

from torchfix.engine.config import ConfigError
from torchfix.engine.pipeline import RunOptions, run
from torchfix.git.defaults import DEFAULT_JOBS, DEFAULT_WORKDIR
from torchfix.git.gitops import (
    CommitOptions,
    CommitResult,
    GitError,
    PushResult,
    Repository,
    branch_commits,
    commit_rewrite,
    diffstat,
    network_env,
    parse_trailers,
    preflight,
    push_branch,
    remote_problem,
)
from torchfix.git.gitreport import pr_body, pr_title, verify_summary
from torchfix.git.rate_limit import TokenBucket
from torchfix.git.verify_command import VerifyInterrupted

GH_TIMEOUT_SECONDS = 120
# scheme://... or scp-like user@host:path; anything else is a path.
_URL = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*://|[^/\s:@]+@[^/\s:]+:)")


@dataclass(frozen=True)
class Target:
    """One repository of a batch."""

    spec: str  # as given
    name: str  # unique among the batch's targets: names the clone and the PR file
    url: str | None  # clone this; None: a local working tree at `spec`


@dataclass(frozen=True)
class BatchOptions:
    """How a batch runs each repository: the run, the commits, where and what to push."""

    run: RunOptions
    commit: CommitOptions
    workdir: Path = DEFAULT_WORKDIR
    push: str | None = None
    pr_dir: Path | None = None
    open_pr: bool = False
    jobs: int = DEFAULT_JOBS
    max_pushes_per_minute: float | None = None  # None: push as fast as repositories finish


@dataclass
class RepoOutcome:
    """What a batch did in one repository."""

    name: str
    status: str = "error"  # changed | clean | verify-failed | error
    root: Path | None = None
    branch: str | None = None
    commits: int = 0
    changes: int = 0
    details: list[str] = field(default_factory=list)  # what happened, most important first
    notes: list[str] = field(default_factory=list)  # by the way: reused clone, skipped files
    pr_file: Path | None = None
    pr_url: str | None = None
    failed_step: bool = False  # e.g. the PR could not be opened although the rest worked

    @property
    def ok(self) -> bool:
        return self.status in ("changed", "clean") and not self.failed_step

    def as_dict(self) -> dict[str, object]:
        return {
            "repository": self.name,
            "status": self.status,
            "path": str(self.root) if self.root else None,
            "branch": self.branch,
            "commits": self.commits,
            "changes": self.changes,
            "details": self.details,
            "notes": self.notes,
            "pr_file": str(self.pr_file) if self.pr_file else None,
            "pr_url": self.pr_url,
            "ok": self.ok,
        }


@dataclass(frozen=True)
class PullRequest:
    """The pull request a batch proposes for one repository."""

    title: str
    body: str
    base: str | None  # the branch it merges into (None: the host's default)


@dataclass(frozen=True)
class DriverSteps:
    """What is left for the driver once a repository is committed: push, describe."""

    root: Path
    branch: str
    base: str  # the commit the branch starts from
    new_commits: bool  # committed by this run (False: the branch already held them)
    pull_request: PullRequest | None  # None: no --pr-dir / --open-pr


@dataclass
class Prepared:
    """A repository's outcome so far, and the driver's part still to do (if any)."""

    outcome: RepoOutcome
    driver: DriverSteps | None = None


class BatchUsageError(ValueError):
    """A problem with the batch's arguments (exit code 2)."""


def read_targets(arguments: Sequence[str], from_file: Path | None) -> list[Target]:
    """Targets from the command line and `--from-file` (one a line, `#` comments).

    Relative paths in the file are relative to the file's folder.
    """
    specs: list[str] = list(arguments)
    if from_file is not None:
        try:
            lines = from_file.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise BatchUsageError(f"cannot read {from_file}: {exc.strerror or exc}") from exc
        for line in lines:
            line = line.split(" #", 1)[0].strip()
            if not line or line.startswith("#"):
                continue
            if not _URL.match(line) and not Path(line).is_absolute():
                line = str(from_file.parent / line)
            specs.append(line)
    if not specs:
        raise BatchUsageError("no repositories given (paths, clone URLs or --from-file FILE)")
    targets: list[Target] = []
    used: set[str] = set()
    for spec in specs:
        problem = remote_problem(spec)
        if problem is not None:  # never handed to git, not even as a path
            raise BatchUsageError(f"refused target {problem}")
        url = spec if _URL.match(spec) else None
        if url is None and _is_bare_repository(spec):
            url = str(Path(spec).resolve())  # as git records it in the clone's origin
        base = _base_name(spec)
        name, number = base, 2
        while name in used:
            name, number = f"{base}-{number}", number + 1
        used.add(name)
        targets.append(Target(spec, name, url))
    return targets


def _base_name(spec: str) -> str:
    tail = re.split(r"[/:\\]", spec.rstrip("/\\"))[-1] or "repository"
    tail = tail.removesuffix(".git") or "repository"
    if tail in (".", ".."):
        tail = Path(spec).resolve().name or "repository"
    return re.sub(r"[^A-Za-z0-9._-]", "_", tail)


def _is_bare_repository(spec: str) -> bool:
    # A local bare repository has no working tree to rewrite: clone it like a URL.
    path = Path(spec)
    if not path.is_dir() or (path / ".git").exists():
        return False
    try:
        return git.Repo(path).bare
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return False


class BatchExecutor:
    """Runs the per-repository work; used as a context manager around `run`."""

    def __enter__(self) -> BatchExecutor:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        return None

    def run(self, targets: Sequence[Target],
            options: BatchOptions) -> Iterator[tuple[int, Prepared]]:
        """Yield (index in `targets`, `process_target`'s result) as each one finishes."""
        raise NotImplementedError



def run_batch(
    targets: Sequence[Target],
    options: BatchOptions,
    on_done: Callable[[RepoOutcome], None] = lambda _outcome: None,
    *,
    executor: BatchExecutor,
) -> list[RepoOutcome]:
    """Process every target on `executor` (threads here, or a Ray cluster:
    `torchfix.git.batch_executors`), finishing each on this process as it comes back;
    outcomes in the targets' order."""
    gh = shutil.which("gh") if options.open_pr else None
    pushes = (TokenBucket(options.max_pushes_per_minute)
              if options.max_pushes_per_minute else None)
    outcomes: dict[int, RepoOutcome] = {}
    # closing(): an interrupt while pushing must also stop the executor's pending work.
    with contextlib.closing(executor.run(targets, options)) as prepared_stream:
        for index, prepared in prepared_stream:
            outcomes[index] = finish_target(prepared, options, gh, pushes)
            on_done(outcomes[index])
    return [outcomes[index] for index in range(len(targets))]


def process_target(target: Target, options: BatchOptions, run_options: RunOptions) -> Prepared:
    """A repository's own work, start to end; plain data in and out, so it may run in
    another process. Never raises: every failure becomes the outcome."""
    outcome = RepoOutcome(target.name)
    repository: Repository | None = None
    steps = None
    try:
        repository = _open(target, options.workdir, outcome)
        outcome.root = repository.root
        steps = _migrate(target, repository, options, run_options, outcome)
    except Exception as exc:  # a bug must not take the other repositories down
        _failed(outcome, exc)
    finally:
        if repository is not None:
            repository.repo.close()  # gitpython keeps cat-file processes per repository
    return Prepared(outcome, steps)


def failed_outcome(target: Target, reason: str) -> RepoOutcome:
    """The outcome of a repository whose work never came back (e.g. its worker died)."""
    return RepoOutcome(target.name, "error", details=[reason])


def _failed(outcome: RepoOutcome, exc: Exception) -> None:
    outcome.status = "error"
    if isinstance(exc, GitError):
        outcome.details.insert(0, str(exc))
    elif isinstance(exc, VerifyInterrupted):
        outcome.details.insert(0, "interrupted; nothing committed")
    elif isinstance(exc, ConfigError):
        outcome.details.insert(0, f"configuration: {exc}")
    else:
        outcome.details.insert(0, f"internal error: {type(exc).__name__}: {exc}")


def finish_target(
    prepared: Prepared, options: BatchOptions, gh: str | None, pushes: TokenBucket | None
) -> RepoOutcome:
    """The driver's part: push the branch (paced by `pushes`), write and open the pull
    request. Never raises: every failure becomes the outcome."""
    outcome, steps = prepared.outcome, prepared.driver
    if steps is None:
        return outcome
    repository: Repository | None = None
    try:
        pushed = None
        if options.push is not None:
            if pushes is not None:
                pushes.acquire()
            repository = _open_on_driver(steps.root)
            pushed = push_branch(repository, options.push, steps.branch, steps.base)
            # An earlier run pushed the same change: the same tree under another commit,
            # or, when both commits were made within one second, the very same commit.
            same_commit = pushed.status == "up-to-date" and steps.new_commits
            if pushed.status == "already-there" or same_commit:
                outcome.status = "clean"
                outcome.details.insert(0, f"{options.push} already has these changes on "
                                          f"{steps.branch}; not pushed")
            else:
                outcome.details.append(pushed.detail)
        if steps.pull_request is not None:
            _describe(steps.root, steps.branch, steps.pull_request, options, gh, pushed,
                      outcome)
    except Exception as exc:
        _failed(outcome, exc)
    finally:
        if repository is not None:
            repository.repo.close()
    return outcome


def _open_on_driver(root: Path) -> Repository:
    if not root.is_dir():
        # The worker cloned it somewhere this machine cannot see.
        raise GitError(f"{root} is not visible on the driver, which pushes: put --workdir "
                       "on a filesystem the driver and the workers share")
    return Repository.open(root)


def _open(target: Target, workdir: Path, outcome: RepoOutcome) -> Repository:
    if target.url is None:
        path = Path(target.spec)
        if not path.exists():
            raise GitError(f"no such folder: {target.spec}")
        return Repository.open(path)
    destination = (workdir / target.name).resolve()
    if destination.exists():
        try:
            existing = git.Repo(destination)
            origin = existing.remotes.origin.url if "origin" in existing.remotes else None
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            origin = None
        if origin != target.url:
            raise GitError(f"{destination} exists and is not a clone of {target.url}")
        outcome.notes.append(f"reused clone {destination}")
        return Repository(existing)
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        cloned = git.Repo.clone_from(target.url, destination, env=network_env())
    except git.GitCommandError as exc:
        raise GitError(f"clone failed: {_git_reason(exc)}") from None
    except (git.UnsafeProtocolError, git.UnsafeOptionError) as exc:
        # gitpython's own refusal (ext:: runs commands): the user's input, not our bug.
        raise GitError(f"clone refused: {exc}") from None
    return Repository(cloned)


def _git_reason(exc: git.GitCommandError) -> str:
    text = str(exc.stderr or "").strip()
    text = re.sub(r"^stderr:\s*'?", "", text).rstrip("'").strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        if line.startswith("fatal:"):
            return line.removeprefix("fatal:").strip()
    return lines[-1] if lines else f"exit {exc.status}"


def _migrate(
    target: Target,
    repository: Repository,
    options: BatchOptions,
    run_options: RunOptions,
    outcome: RepoOutcome,
) -> DriverSteps | None:
    pre = preflight(repository, options.commit)
    if options.push is not None and not _URL.match(options.push) \
            and options.push not in {remote.name for remote in repository.repo.remotes}:
        # Found out now, not after the branch is made and the check has run.
        raise GitError(f"no remote named {options.push!r} in {repository.root}")
    paths = [Path(target.spec)] if target.url is None else [repository.root]
    run_options = replace(run_options, config_root=repository.root,
                          exclude_root=repository.root)
    result = run(paths, run_options)
    committed = commit_rewrite(pre, result, options.commit)
    errors = sum(r.error is not None for r in result.results) + len(committed.problems)
    if errors:
        outcome.notes.append(f"{errors} file(s) could not be processed")
    if committed.left_out:
        outcome.notes.append(f"{len(committed.left_out)} changed file(s) left out (uncommitted "
                             "changes or untracked)")
    outcome.branch = committed.branch
    if committed.status == "nothing":
        outcome.status = "clean"
        outcome.details.insert(0, "nothing to change")
        return None
    if committed.status == "verify-failed":
        _verify_failed(committed, options, outcome)
        return None
    outcome.status = "changed" if committed.status == "committed" else "clean"
    if committed.status == "up-to-date":
        outcome.details.insert(0, committed.note or "up to date: nothing new to commit")
    if committed.note and committed.status == "committed":
        outcome.notes.append(committed.note)
    assert committed.branch is not None and committed.base is not None
    outcome.commits = len(committed.commits)
    outcome.changes = sum(c.changes for commit in committed.commits
                          for c in parse_trailers(commit.message))
    pull_request = None
    if options.pr_dir is not None or options.open_pr:
        pull_request = _pull_request(repository, committed, options)
    return DriverSteps(repository.root, committed.branch, committed.base,
                       committed.status == "committed", pull_request)


def _verify_failed(committed: CommitResult, options: BatchOptions,
                   outcome: RepoOutcome) -> None:
    spec = options.commit.verify
    after = committed.verify_after
    assert spec is not None and after is not None
    outcome.status = "verify-failed"
    outcome.branch = None
    outcome.details.insert(
        0,
        f"{after.describe(spec.timeout)} after applying {', '.join(committed.codemods)} "
        f"(passed before); rolled back, nothing committed; output: {telling_line(after.tail)}",
    )
    log = options.workdir / "logs" / f"{outcome.name}-verify.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(f"$ {spec.command}\n{after.tail}\n", encoding="utf-8")
    outcome.notes.append(f"last lines of its output in {log}")


_TELLING = re.compile(r"Error|FAILED|ERROR|error:|Traceback|assert")


def telling_line(tail: str) -> str:
    """The line of a failed check's output most worth a glance: the last that names an
    error (pytest's `FAILED test - TypeError: ...`), else the last line."""
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    telling = [line for line in lines if _TELLING.search(line)]
    return (telling or lines or [""])[-1]


def _pull_request(repository: Repository, committed: CommitResult,
                  options: BatchOptions) -> PullRequest:
    assert committed.branch is not None and committed.base is not None
    commits = branch_commits(repository, committed.base, committed.branch)
    body = pr_body(
        commits,
        diffstat(repository, committed.base, committed.branch),
        from_branch=committed.from_branch,
        base=committed.base,
        verify=verify_summary(options.commit.verify, committed.verify_before,
                              committed.verify_after),
    )
    return PullRequest(pr_title(commits), body, committed.from_branch)


def _describe(
    root: Path,
    branch: str,
    pull_request: PullRequest,
    options: BatchOptions,
    gh: str | None,
    pushed: PushResult | None,
    outcome: RepoOutcome,
) -> None:
    title, body = pull_request.title, pull_request.body
    pr_dir = options.pr_dir or (options.workdir / "pull-requests")
    pr_dir.mkdir(parents=True, exist_ok=True)
    outcome.pr_file = pr_dir / f"{outcome.name}.md"
    outcome.pr_file.write_text(f"# {title}\n\n{body}", encoding="utf-8")
    if not options.open_pr:
        return
    if gh is None:
        outcome.failed_step = True
        outcome.details.append(f"PR not opened: gh not found on PATH (body in "
                               f"{outcome.pr_file})")
        return
    if pushed is None or pushed.status != "pushed":
        outcome.details.append("PR not opened: nothing new was pushed")
        return
    base = ["--base", pull_request.base] if pull_request.base else []
    command = [gh, "pr", "create", "--head", branch, *base, "--title", title,
               "--body-file", "-"]
    try:
        done = subprocess.run(
            command, cwd=root, input=body.encode(), capture_output=True,
            timeout=GH_TIMEOUT_SECONDS, env={**os.environ, "GH_PROMPT_DISABLED": "1"},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        outcome.failed_step = True
        outcome.details.append(f"PR not opened: gh failed: {exc}")
        return
    output = done.stdout.decode(errors="replace").strip().splitlines()
    errors = done.stderr.decode(errors="replace").strip().splitlines()
    if done.returncode == 0:
        outcome.pr_url = output[-1] if output else None
        outcome.details.append(f"PR opened: {outcome.pr_url or '(no URL printed)'}")
    elif any("already exists" in line for line in errors):
        outcome.details.append("PR already open for this branch; the push updated it")
    else:
        outcome.failed_step = True
        reason = errors[-1] if errors else f"exit {done.returncode}"
        outcome.details.append(f"PR not opened: gh pr create failed: {reason}")


# -- the final table ---------------------------------------------------------------------------

_STYLES = {"changed": "green", "clean": "dim", "verify-failed": "yellow", "error": "bold red"}


def batch_table(outcomes: Sequence[RepoOutcome]) -> Table:
    """One row per repository: outcome, branch, commits, what happened (or why not)."""
    table = Table(header_style="bold", title="torchfix batch", title_justify="left")
    table.add_column("repository", overflow="fold")
    table.add_column("outcome", no_wrap=True)
    table.add_column("branch", overflow="fold")
    table.add_column("commits", justify="right")
    table.add_column("changes", justify="right")
    table.add_column("details", overflow="fold")
    for outcome in outcomes:
        table.add_row(  # Text, not str: "[rejected]" in a reason is not rich markup
            Text(outcome.name),
            Text(outcome.status, style=_STYLES.get(outcome.status, "")),
            Text(outcome.branch or ""),
            str(outcome.commits or ""),
            str(outcome.changes or ""),
            Text("; ".join([*outcome.details, *outcome.notes])),
        )
    return table
