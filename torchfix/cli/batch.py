"""`torchfix batch`: migrate many repositories, each on a branch with a PR description."""

from __future__ import annotations

import contextlib
import json
import shutil
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from torchfix.cli.common import EXIT_FINDINGS, EXIT_OK, stderr, stdout, usage_error
from torchfix.cli.options import (
    AllowDirtyOpt,
    AuthorOpt,
    BranchOpt,
    ConfigOpt,
    ExcludeOpt,
    GeneratedOpt,
    IgnoreOpt,
    NoCacheOpt,
    QuietOpt,
    SelectOpt,
    SquashOpt,
    UnsafeOpt,
    VerifyOpt,
    VerifyShellOpt,
    VerifyTimeoutOpt,
    run_options,
)
from torchfix.git.defaults import (
    DEFAULT_JOBS,
    DEFAULT_VERIFY_TIMEOUT_SECONDS,
    DEFAULT_WORKDIR,
)


# batch's own choices: defined here, not with the shared options, so that the commands
# every editor and pre-commit run (check, apply) do not build their enums at start-up.
class BatchFormat(str, Enum):
    text = "text"
    json = "json"


class Executor(str, Enum):
    local = "local"
    ray = "ray"


def batch(
    targets: Annotated[
        list[str] | None,
        typer.Argument(metavar="TARGET", help="Repositories: local paths or clone URLs.",
                       show_default=False),
    ] = None,
    from_file: Annotated[
        Path | None,
        typer.Option("--from-file", metavar="FILE", help="Also read targets from FILE, one a "
                     "line (# comments; paths relative to FILE).", show_default=False),
    ] = None,
    workdir: Annotated[
        Path, typer.Option("--workdir", metavar="DIR",
                           help="Where clone URLs are cloned (and reused).")
    ] = DEFAULT_WORKDIR,
    branch: BranchOpt = None,
    squash: SquashOpt = False,
    allow_dirty: AllowDirtyOpt = False,
    author: AuthorOpt = None,
    verify: VerifyOpt = None,
    verify_shell: VerifyShellOpt = False,
    verify_timeout: VerifyTimeoutOpt = DEFAULT_VERIFY_TIMEOUT_SECONDS,
    push: Annotated[
        str | None,
        typer.Option("--push", metavar="REMOTE", help="Push each new branch to REMOTE "
                     "(a fast-forward, never forced).", show_default=False),
    ] = None,
    pr_dir: Annotated[
        Path | None,
        typer.Option("--pr-dir", metavar="DIR", help="Write each pull request's title and "
                     "body (Markdown) to DIR/<repository>.md.", show_default=False),
    ] = None,
    open_pr: Annotated[
        bool, typer.Option("--open-pr", help="Open each pull request with the gh CLI "
                                              "(needs --push).")
    ] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, metavar="N",
                          help="Repositories processed at once (--executor local).")
    ] = DEFAULT_JOBS,
    executor: Annotated[
        Executor, typer.Option("--executor", help="Run each repository on a local thread, "
                               "or as a task on a Ray cluster (needs torchfix-codemods[ray]).")
    ] = Executor.local,
    ray_address: Annotated[
        str | None,
        typer.Option("--ray-address", metavar="ADDRESS", help="Join this Ray cluster "
                     "(default: RAY_ADDRESS, else start a local one).", show_default=False),
    ] = None,
    ray_num_cpus: Annotated[
        float | None,
        typer.Option("--ray-num-cpus", min=0.01, metavar="N", help="CPUs each repository's "
                     "Ray task asks for (default: 1).", show_default=False),
    ] = None,
    max_pushes_per_minute: Annotated[
        float | None,
        typer.Option("--max-pushes-per-minute", min=0.01, metavar="N", help="Push (and open "
                     "pull requests for) at most N repositories a minute, evenly spaced.",
                     show_default=False),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option("--report", metavar="FILE", help="Write each repository's outcome to "
                     "FILE as a JSON line as soon as it finishes.", show_default=False),
    ] = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    unsafe_fixes: UnsafeOpt = None,
    config: ConfigOpt = None,
    exclude: ExcludeOpt = None,
    include_generated: GeneratedOpt = None,
    no_cache: NoCacheOpt = False,
    output_format: Annotated[
        BatchFormat, typer.Option("--format", help="text (a table) or json.")
    ] = BatchFormat.text,
    quiet: QuietOpt = False,
) -> None:
    """Migrate many repositories: branch, apply, verify, commit, push, describe a PR.

    Each repository uses the tool.torchfix settings in its own pyproject.toml (never one
    above its root); options given here win. Clone URLs are cloned into --workdir; local
    paths are migrated in place and end up on the new branch, as with `apply --commit`.
    """
    from torchfix.cli.apply import _commit_options
    from torchfix.engine.config import ConfigError
    from torchfix.engine.pipeline import resolve
    from torchfix.git.batch import (
        BatchOptions,
        BatchUsageError,
        RepoOutcome,
        batch_table,
        read_targets,
        run_batch,
    )
    from torchfix.git.batch_executors import (
        BatchExecutor,
        ExecutorError,
        LocalExecutor,
        RayExecutor,
    )
    from torchfix.git.batch_report import JsonLinesReport
    from torchfix.git.gitops import remote_problem
    from torchfix.rewrite import registry

    if open_pr and push is None:
        usage_error("--open-pr needs --push REMOTE (the branch must be on a remote)")
    push_problem = remote_problem(push) if push is not None else None
    if push_problem is not None:
        usage_error(f"--push: refused remote {push_problem}")
    if max_pushes_per_minute is not None and push is None:
        usage_error("--max-pushes-per-minute needs --push REMOTE")
    if executor is Executor.local and (ray_address is not None or ray_num_cpus is not None):
        usage_error("--ray-address and --ray-num-cpus need --executor ray")
    commit_options = _commit_options(branch, squash, allow_dirty, author, verify,
                                     verify_shell, verify_timeout)
    options = run_options(select, ignore, exclude, unsafe_fixes, include_generated,
                           config.resolve() if config else None, None, no_cache)
    try:
        chosen = read_targets(targets or [], from_file)
        registry.select(options.select, options.ignore)
        if options.config is not None:
            resolve([Path(".")], options)
    except (BatchUsageError, ConfigError, registry.UnknownCodemodError) as exc:
        usage_error(str(exc))
    if open_pr and shutil.which("gh") is None:
        stderr().print("torchfix: gh not found on PATH: pull requests will not be opened; "
                     "their bodies are left in the PR folder", markup=False)

    with contextlib.ExitStack() as stack:
        chosen_executor: BatchExecutor = (
            RayExecutor(ray_address, ray_num_cpus or 1.0) if executor is Executor.ray
            else LocalExecutor(jobs))
        try:
            stack.enter_context(chosen_executor)
            # After the executor: a cluster that cannot start must not cost the last report.
            journal = stack.enter_context(JsonLinesReport(report)) if report else None
        except ExecutorError as exc:
            usage_error(str(exc))
        except OSError as exc:
            usage_error(f"cannot write {report}: {exc.strerror or exc}")
        finished = 0

        def done(outcome: RepoOutcome) -> None:
            nonlocal finished
            finished += 1
            if journal is not None:
                journal.write(outcome)
            if not quiet:
                where = f" on {outcome.branch}" if outcome.branch else ""
                first = f": {outcome.details[0]}" if outcome.details else ""
                stderr().print(f"[{finished}/{len(chosen)}] {outcome.name}: "
                             f"{outcome.status}{where}{first}", markup=False)

        outcomes = run_batch(
            chosen,
            BatchOptions(options, commit_options, workdir, push, pr_dir, open_pr, jobs,
                         max_pushes_per_minute),
            on_done=done,
            executor=chosen_executor,
        )
    if output_format is BatchFormat.json:
        stdout().out(json.dumps({"repositories": [o.as_dict() for o in outcomes]}, indent=2),
                   highlight=False)
    else:
        # Piped output has no terminal width; do not squeeze the reasons into 80 columns.
        from rich.console import Console

        wide = stdout() if stdout().is_terminal else Console(highlight=False, width=160)
        wide.print(batch_table(outcomes))
    raise typer.Exit(EXIT_OK if all(outcome.ok for outcome in outcomes) else EXIT_FINDINGS)


