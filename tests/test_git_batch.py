"""`torchfix batch`: many repositories, local and cloned, each on its own branch; pushes to
(bare) remotes, pull request descriptions, `gh`, and failures that stay in their row."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from git_helpers import (
    STRICT_FILES,
    git,
    head,
    isolate_git,
    make_bare_remote,
    make_repo,
    status,
    torchfix,
    write_files,
)

from torchfix.rewrite import registry

STRICT = "strict-load-state-dict"
BRANCH = f"torchfix/{STRICT}"


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def _remote_with(tmp_path: Path, name: str, files: dict[str, str | bytes] = STRICT_FILES) -> Path:
    """A bare repository holding a project, as a hosting service would."""
    source = make_repo(tmp_path / "sources" / name, files)
    return make_bare_remote(tmp_path / f"{name}.git", source)


def _batch(tmp_path: Path, *args: str):
    return torchfix("batch", "--workdir", str(tmp_path / "work"), *args, cwd=tmp_path)


def _rows(output: str) -> dict[str, str]:
    """The table's rows by repository name, each cell's wrapped lines joined again."""
    rows: dict[str, list[list[str]]] = {}
    current: list[list[str]] | None = None
    for line in output.splitlines():
        if not line.startswith("│"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
        if cells[0] and (current is None or cells[1]):  # a new row names its outcome
            current = rows.setdefault(cells[0], [[] for _ in cells])
        assert current is not None
        for parts, cell in zip(current, cells, strict=True):
            if cell:
                parts.append(cell)
    return {name: " | ".join(" ".join(parts) for parts in row) for name, row in rows.items()}


def _remote_branches(remote: Path) -> list[str]:
    return git(remote, "for-each-ref", "--format=%(refname:short)", "refs/heads").split()


def test_clone_commit_push_and_describe(tmp_path: Path) -> None:
    remote = _remote_with(tmp_path, "vision")
    local = tmp_path / "local-checkout"
    git(tmp_path, "clone", "-q", str(_remote_with(tmp_path, "audio")), str(local))
    clean = _remote_with(tmp_path, "docs", {"README.py": "x = 1\n"})
    pr_dir = tmp_path / "prs"

    result = _batch(tmp_path, f"file://{remote}", str(local), str(clean), "--push", "origin",
                    "--pr-dir", str(pr_dir), "--jobs", "2")

    assert result.exit_code == 0, result.stdout + result.stderr
    rows = _rows(result.stdout)
    assert "changed" in rows["vision"] and BRANCH in rows["vision"]
    assert "pushed to origin (new branch)" in rows["vision"]
    assert "changed" in rows["local-checkout"]
    assert "clean" in rows["docs"] and "nothing to change" in rows["docs"]
    assert "vision: changed on torchfix/strict-load-state-dict" in result.stderr

    # The remote got the branch (and only that); its commit is the rewrite.
    assert _remote_branches(remote) == ["main", BRANCH]
    assert git(remote, "show", f"{BRANCH}:src/train.py").endswith(
        "model.load_state_dict(sd, strict=True)\n")
    assert head(remote, f"{BRANCH}~1") == head(remote, "main")
    # The local checkout is on the new branch, as after `apply --commit`.
    assert git(local, "branch", "--show-current").strip() == BRANCH
    assert status(local) == ""

    body = (pr_dir / "vision.md").read_text()
    summary = registry.get(STRICT).summary.rstrip(".")
    assert body.startswith(f"# torchfix: {summary}\n")
    assert f"| `{STRICT}` | 2 | 2 | {summary} |" in body
    assert "A checkpoint whose keys do not match the model is a bug" in body
    assert "- `src/train.py:5`: pass strict=True" in body
    assert " src/evaluate.py | 2 +-\n src/train.py    | 2 +-\n 2 files changed" in body
    assert "Torchfix-Codemod" not in body
    assert not (pr_dir / "docs.md").exists()


def test_one_failing_repository_never_stops_the_others(tmp_path: Path) -> None:
    good = _remote_with(tmp_path, "good")
    not_a_repo = tmp_path / "plain-folder"
    not_a_repo.mkdir()
    detached = make_repo(tmp_path / "detached")
    git(detached, "checkout", "-q", "--detach")

    result = _batch(tmp_path, f"file://{tmp_path}/missing.git", str(good), str(not_a_repo),
                    str(detached), str(tmp_path / "nowhere"), "--jobs", "3")

    assert result.exit_code == 1
    rows = _rows(result.stdout)
    assert "error" in rows["missing"] and "clone failed:" in rows["missing"]
    assert "changed" in rows["good"]
    assert f"not a git repository: {not_a_repo}" in rows["plain-folder"]
    assert "detached HEAD" in rows["detached"]
    assert "no such folder" in rows["nowhere"]
    assert "Traceback" not in result.stdout + result.stderr


def test_verify_failure_rolls_back_that_repository_only(tmp_path: Path) -> None:
    breaks = _remote_with(tmp_path, "breaks")
    fine = _remote_with(tmp_path, "fine", {
        "other.py": "from torch import nn\n\n\n"
                    "def f(model: nn.Module, sd):\n    model.load_state_dict(sd)\n",
        "src/train.py": "x = 1\n",
    })
    check = (f"{sys.executable} -c \"import pathlib, sys; "
             "t = pathlib.Path('src/train.py').read_text(); "
             "print('test_resume FAILED'); sys.exit('strict=True' in t)\"")

    result = _batch(tmp_path, str(breaks), str(fine), "--verify", check, "--push", "origin",
                    "--pr-dir", str(tmp_path / "prs"))

    assert result.exit_code == 1
    rows = _rows(result.stdout)
    assert "verify-failed" in rows["breaks"]
    assert "rolled back" in rows["breaks"] and "output: test_resume FAILED" in rows["breaks"]
    log = tmp_path / "work" / "logs" / "breaks-verify.log"
    assert log.read_text().splitlines() == [f"$ {check}", "test_resume FAILED"]
    assert f"after applying {STRICT}" in rows["breaks"]
    assert _remote_branches(breaks) == ["main"]  # nothing pushed
    clone = tmp_path / "work" / "breaks"
    assert status(clone) == "" and git(clone, "branch", "--list").split() == ["*", "main"]
    assert not (tmp_path / "prs" / "breaks.md").exists()
    assert "changed" in rows["fine"] and _remote_branches(fine) == ["main", BRANCH]
    assert "passed before and after the rewrite" in (tmp_path / "prs" / "fine.md").read_text()


def test_rerun_is_a_no_op(tmp_path: Path) -> None:
    remote = _remote_with(tmp_path, "project")
    assert _batch(tmp_path, str(remote), "--push", "origin").exit_code == 0
    tip = head(remote, BRANCH)

    again = _batch(tmp_path, str(remote), "--push", "origin")  # the same work folder
    assert again.exit_code == 0
    row = _rows(again.stdout)["project"]
    assert "clean" in row and "up to date: nothing new to commit; origin is up to date" in row
    fresh = torchfix("batch", "--workdir", str(tmp_path / "fresh"), str(remote), "--push",
                     "origin", "--format", "json", cwd=tmp_path)  # a new clone, same content
    assert fresh.exit_code == 0
    (row,) = json.loads(fresh.stdout)["repositories"]
    assert row["repository"] == "project" and row["status"] == "clean" and row["ok"]
    assert row["details"] == [f"origin already has these changes on {BRANCH}; not pushed"]
    assert head(remote, BRANCH) == tip


def test_push_never_forces_and_reports_rejection(tmp_path: Path) -> None:
    taken = _remote_with(tmp_path, "taken")
    # Somebody else's branch with our default name, with other content.
    other = tmp_path / "somebody"
    git(tmp_path, "clone", "-q", str(taken), str(other))
    git(other, "checkout", "-q", "-b", BRANCH)
    write_files(other, {"theirs.py": "x = 2\n"})
    git(other, "add", "-A")
    git(other, "commit", "-q", "-m", "their work")
    git(other, "push", "-q", "origin", BRANCH)
    theirs = head(taken, BRANCH)

    hooked = _remote_with(tmp_path, "hooked")
    hook = hooked / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'branch names must start with feature/' >&2\nexit 1\n")
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)

    result = _batch(tmp_path, str(taken), str(hooked), "--push", "origin")

    assert result.exit_code == 1
    rows = _rows(result.stdout)
    assert "push refused: origin already has a branch" in rows["taken"]
    assert "nothing was force-pushed" in rows["taken"]
    assert head(taken, BRANCH) == theirs
    assert ("push to origin rejected: [remote rejected] (pre-receive hook declined); branch "
            "names must start with feature/") in rows["hooked"]
    assert _remote_branches(hooked) == ["main"]


def _fake_gh(tmp_path: Path) -> Path:
    """A stand-in for the GitHub CLI that records how it was called."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "gh"
    script.write_text(
        "#!/bin/sh\n"
        'printf "%s\\n" "$@" > "$GH_LOG.args"\n'
        'cat > "$GH_LOG.body"\n'
        'echo "https://github.example/org/project/pull/7"\n'
    )
    script.chmod(0o755)
    return bin_dir


def test_open_pr_with_gh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    remote = _remote_with(tmp_path, "project")
    monkeypatch.setenv("PATH", f"{_fake_gh(tmp_path)}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("GH_LOG", str(tmp_path / "gh"))

    result = _batch(tmp_path, str(remote), "--push", "origin", "--open-pr",
                    "--pr-dir", str(tmp_path / "prs"))

    assert result.exit_code == 0, result.stdout + result.stderr
    assert "PR opened: https://github.example/org/project/pull/7" in _rows(
        result.stdout)["project"]
    args = (tmp_path / "gh.args").read_text().splitlines()
    title = f"torchfix: {registry.get(STRICT).summary.rstrip('.')}"
    assert args == ["pr", "create", "--head", BRANCH, "--base", "main", "--title", title,
                    "--body-file", "-"]
    written = (tmp_path / "prs" / "project.md").read_text()
    assert written == f"# {title}\n\n" + (tmp_path / "gh.body").read_text()


def test_open_pr_without_gh_leaves_the_body(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    remote = _remote_with(tmp_path, "project")
    only_git = tmp_path / "only-git"
    only_git.mkdir()
    for tool in ("git", "sh"):
        found = next(Path(d) / tool for d in os.environ["PATH"].split(os.pathsep)
                     if (Path(d) / tool).exists())
        (only_git / tool).symlink_to(found)
    monkeypatch.setenv("PATH", str(only_git))

    result = _batch(tmp_path, str(remote), "--push", "origin", "--open-pr",
                    "--pr-dir", str(tmp_path / "prs"))

    assert result.exit_code == 1
    assert "gh not found on PATH: pull requests will not be opened" in result.stderr
    assert "PR not opened: gh not found on PATH" in _rows(result.stdout)["project"]
    assert (tmp_path / "prs" / "project.md").is_file()
    assert _remote_branches(remote) == ["main", BRANCH]


def test_from_file_and_each_repository_s_own_config(tmp_path: Path) -> None:
    # A configuration above the repositories must not leak into them.
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.torchfix]\nignore = ["{STRICT}"]\n')
    own = dict(STRICT_FILES)
    own["pyproject.toml"] = f'[tool.torchfix]\nignore = ["{STRICT}"]\n'
    make_repo(tmp_path / "repos" / "opted-out", own)
    make_repo(tmp_path / "repos" / "default")
    targets = tmp_path / "repos" / "targets.txt"
    targets.write_text("# the team's repositories\nopted-out\n\ndefault  # ours\n")

    result = _batch(tmp_path, "--from-file", str(targets))
    assert result.exit_code == 0, result.stdout + result.stderr
    rows = _rows(result.stdout)
    assert "clean" in rows["opted-out"] and "changed" in rows["default"]

    # The command line wins over the repository's configuration; --exclude patterns are
    # anchored at each repository's root.
    result = _batch(tmp_path, "--from-file", str(targets), "--select", STRICT,
                    "--exclude", "/src/train.py", "--branch", "second", "--format", "json")
    rows = {row["repository"]: row for row in json.loads(result.stdout)["repositories"]}
    assert rows["opted-out"]["status"] == "changed" and rows["opted-out"]["changes"] == 1
    assert git(tmp_path / "repos" / "opted-out", "diff", "--name-only", "main",
               "second").split() == ["src/evaluate.py"]


def test_batch_usage_errors(tmp_path: Path) -> None:
    for args, message in [
        ([], "no repositories given"),
        (["x", "--open-pr"], "--open-pr needs --push REMOTE"),
        (["x", "--select", "no-such-codemod"], "unknown codemod 'no-such-codemod'"),
        (["--from-file", "missing.txt"], "cannot read missing.txt"),
        (["x", "--verify", "'unbalanced"], "cannot split --verify command"),
    ]:
        result = _batch(tmp_path, *args)
        assert result.exit_code == 2, (args, result.stderr)
        assert message in result.stderr, args
