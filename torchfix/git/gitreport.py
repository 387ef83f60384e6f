"""What users read about git output: commit and patch summaries, pull request
descriptions. Plain data in, text or rich renderables out."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from torchfix import __version__
from torchfix.git.gitops import (
    TRAILER,
    BuiltCommit,
    CommitResult,
    LoggedCommit,
    PatchResult,
    codemod_summary,
    parse_trailers,
)
from torchfix.git.verify_command import VerifyRun, VerifySpec
from torchfix.output.report import counted, shown_path

# GitHub refuses descriptions longer than 65536 characters.
MAX_PR_BODY = 60_000
MAX_DIFFSTAT_LINES = 200



def commit_line(commit: BuiltCommit | LoggedCommit) -> str:
    counts = parse_trailers(commit.message)
    changes = sum(c.changes for c in counts)
    suffix = f"  ({counted(changes, 'change')})" if counts else ""
    return f"  {commit.sha[:10]} {commit.subject}{suffix}"


def left_out_lines(left_out: Sequence[tuple[Path, str]]) -> list[str]:
    if not left_out:
        return []
    lines = [f"Left out {counted(len(left_out), 'file')} that torchfix would change "
             "(not committed; your working tree keeps them as they are):"]
    lines += [f"  {shown_path(path)}: {why}" for path, why in left_out]
    return lines


def verify_lines(result: CommitResult, spec: VerifySpec | None) -> list[str]:
    if spec is None or result.verify_before is None:
        return []
    lines = []
    if result.status == "verify-failed" and result.verify_after is not None:
        lines.append(
            f"verify: {spec.command!r} passed before the rewrite and "
            f"{result.verify_after.describe(spec.timeout)} after it; rolled back "
            f"({', '.join(result.codemods)}), nothing committed. "
            + ("Last output:" if result.verify_after.tail.strip() else "It printed nothing.")
        )
        lines += [f"  | {line}" for line in result.verify_after.tail.splitlines()]
    elif result.verify_after is not None:
        lines.append(f"verify: {spec.command!r} passed before and after the rewrite")
    if result.note:
        lines.append(f"note: {result.note}")
    return lines


def commit_report(result: CommitResult, spec: VerifySpec | None) -> list[str]:
    """Lines for `apply --commit`: what was committed where, and what was not."""
    lines: list[str] = []
    if result.status == "committed":
        how = (f"Created branch {result.branch} from {result.from_branch}"
               if result.created else f"Added to branch {result.branch}")
        lines.append(f"{how} with {counted(len(result.commits), 'commit')}:")
        lines += [commit_line(commit) for commit in result.commits]
    elif result.status == "up-to-date":
        lines.append(f"Nothing to do: {result.note or f'branch {result.branch} is up to date'}.")
    elif result.status == "nothing":
        lines.append("Nothing to commit: torchfix changes nothing here; no branch created.")
    lines += verify_lines(result, spec)
    if result.status != "verify-failed" and result.note and result.verify_before is None:
        lines.append(f"note: {result.note}")
    lines += left_out_lines(result.left_out)
    return lines


def patch_report(result: PatchResult) -> list[str]:
    lines: list[str] = []
    if result.files:
        lines.append(f"Wrote {counted(len(result.files), 'patch')} against {result.base[:10]} "
                     "(apply with `git am` on that commit):")
        lines += [f"  {shown_path(path)}" for path in result.files]
    else:
        lines.append("Nothing to change; no patches written.")
    lines += left_out_lines(result.left_out)
    return lines


# -- pull requests ---------------------------------------------------------------------------


def pr_title(commits: Sequence[LoggedCommit]) -> str:
    names = list(dict.fromkeys(c.codemod for commit in commits
                               for c in parse_trailers(commit.message)))
    if len(names) == 1:
        return f"torchfix: {codemod_summary(names[0])}"
    if names:
        return f"torchfix: apply {len(names)} codemods ({', '.join(names)})"
    return commits[0].subject if commits else "torchfix"


def pr_body(
    commits: Sequence[LoggedCommit],
    stat: str,
    *,
    from_branch: str | None,
    base: str,
    verify: str | None = None,
) -> str:
    """A Markdown description: summary table, per-commit why and changes, diffstat."""
    counts = [c for commit in commits for c in parse_trailers(commit.message)]
    total = sum(c.changes for c in counts)
    where = f"`{from_branch}` at `{base[:10]}`" if from_branch else f"`{base[:10]}`"
    per_commit = ("Each commit applies one codemod and can be reviewed on its own."
                  if len(commits) > 1 else "")
    head = [
        f"Automated rewrite by torchfix {__version__}, made on {where}: "
        f"{counted(total, 'change')} by {counted(len(counts), 'codemod')}. {per_commit}".rstrip(),
        "",
        "| Codemod | Changes | Files | What it does |",
        "| --- | ---: | ---: | --- |",
    ]
    head += [
        f"| `{c.codemod}` | {c.changes} | {c.files} | "
        f"{_escape_cell(codemod_summary(c.codemod))} |"
        for c in counts
    ]
    if verify:
        head += ["", verify]
    details: list[str] = []
    for commit in commits:
        details += ["", f"### {commit.subject}", "", _markdown_body(commit.message)]
    tail = ["", "### Diffstat", "", "```", _cap_diffstat(stat), "```", ""]
    body = "\n".join(head + details + tail)
    if len(body) > MAX_PR_BODY:
        note = ["", "_The per-commit change lists are too long for a pull request description;"
                " each commit message has its own._"]
        body = "\n".join(head + note + tail)
    return body


def verify_summary(spec: VerifySpec | None, before: VerifyRun | None,
                   after: VerifyRun | None) -> str | None:
    if spec is None or before is None:
        return None
    if after is not None and after.passed:
        return f"Checked with `{spec.command}`: passed before and after the rewrite."
    if not before.passed:
        return (f"`{spec.command}` already {before.describe(spec.timeout)} before the rewrite,"
                " so it could not check it.")
    return None


def _escape_cell(text: str) -> str:
    return text.replace("|", "\\|")


_CHANGE_LINE = re.compile(r"^- (?P<where>.+?:\d+): ", re.M)
_SECTION_LINE = re.compile(r"^\[(?P<name>[^\]]+)\] (?P<summary>.*)$", re.M)


def _markdown_body(message: str) -> str:
    """A commit message body as Markdown: paths as code, no subject, no trailers."""
    lines = message.splitlines()[1:]
    lines = [line for line in lines if not line.startswith(f"{TRAILER}: ")]
    text = "\n".join(lines).strip()
    text = _CHANGE_LINE.sub(lambda m: f"- `{m.group('where')}`: ", text)
    return _SECTION_LINE.sub(lambda m: f"#### `{m.group('name')}`: {m.group('summary')}", text)


def _cap_diffstat(stat: str) -> str:
    lines = stat.splitlines()
    if len(lines) <= MAX_DIFFSTAT_LINES:
        return stat
    hidden = len(lines) - MAX_DIFFSTAT_LINES
    return "\n".join([*lines[: MAX_DIFFSTAT_LINES - 1], f" ... {hidden} more files",
                      lines[-1]])
