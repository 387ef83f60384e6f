"""`torchfix apply --commit`: commits on a new branch, never the user's own edits, never on
a branch torchfix did not make; `--verify` rolls back a rewrite that breaks the check."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from git_helpers import (
    EMAIL,
    USER,
    add_test_codemod,
    git,
    head,
    isolate_git,
    make_repo,
    status,
    torchfix,
    write_files,
)

from torchfix.rewrite import registry

STRICT = "strict-load-state-dict"


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def _commit(repo: Path, *args: str, cwd: Path | None = None):
    return torchfix("apply", "--commit", "--jobs", "1", *args, ".", cwd=cwd or repo)


def _subjects(repo: Path, revisions: str) -> list[str]:
    return git(repo, "log", "--reverse", "--format=%s", revisions).splitlines()


def test_commit_on_a_new_branch(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    base = head(repo)

    result = _commit(repo)

    assert result.exit_code == 0, result.stderr
    branch = f"torchfix/{STRICT}"
    assert git(repo, "branch", "--show-current").strip() == branch
    assert head(repo, "main") == base  # the starting branch is untouched
    assert head(repo, "HEAD~1") == base
    assert status(repo) == ""
    message = git(repo, "log", "-1", "--format=%B")
    assert message.splitlines()[0] == f"torchfix: {registry.get(STRICT).summary.rstrip('.')}"
    assert "A checkpoint whose keys do not match the model is a bug" in message
    assert "- src/evaluate.py:5: pass strict=True" in message
    assert message.rstrip().endswith(f"Torchfix-Codemod: {STRICT} (2 changes in 2 files)")
    assert git(repo, "log", "-1", "--format=%an <%ae>|%cn <%ce>").strip() == (
        f"{USER} <{EMAIL}>|{USER} <{EMAIL}>")
    assert "strict=True" in (repo / "src/train.py").read_text()
    assert f"Created branch {branch} from main with 1 commit" in result.stderr


def test_one_commit_per_codemod_or_one_with_squash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_test_codemod(monkeypatch)
    files = {"train.py": "import torch\n\n\ndef f(model: torch.nn.Module, p):\n"
                         "    model.load_state_dict(torch.load(p))\n"}
    repo = make_repo(tmp_path / "repo", files)
    # The stand-in, not load-weights-only (which would make the same change first).
    chosen = ("--select", f"{STRICT},test-weights-only")
    result = _commit(repo, *chosen)
    assert result.exit_code == 0, result.stderr
    assert git(repo, "branch", "--show-current").strip() == (
        f"torchfix/{STRICT}+test-weights-only")
    assert _subjects(repo, "main..HEAD") == [
        f"torchfix: {registry.get(STRICT).summary.rstrip('.')}",
        "torchfix: Pass weights_only=True to torch.load",
    ]
    assert git(repo, "show", "HEAD~1:train.py").endswith(
        "model.load_state_dict(torch.load(p), strict=True)\n")

    other = make_repo(tmp_path / "other", files)
    result = _commit(other, *chosen, "--squash", "--branch", "migration")
    assert result.exit_code == 0, result.stderr
    assert _subjects(other, "main..migration") == [
        f"torchfix: apply 2 codemods ({STRICT}, test-weights-only)"]
    message = git(other, "log", "-1", "--format=%B")
    assert f"[{STRICT}]" in message and "[test-weights-only]" in message
    assert (other / "train.py").read_bytes() == (repo / "train.py").read_bytes()


def test_dirty_tree_is_refused_without_allow_dirty(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    (repo / "src/train.py").write_text("# my edit\n" + (repo / "src/train.py").read_text())
    result = _commit(repo)
    assert result.exit_code == 2
    assert "has uncommitted changes (1 file)" in result.stderr
    assert "--allow-dirty" in result.stderr
    assert git(repo, "branch", "--show-current").strip() == "main"


def test_allow_dirty_never_commits_or_loses_user_edits(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write_files(repo, {"src/more.py": "from torch import nn\n\n\n"
                                      "def g(model: nn.Module, sd):\n"
                                      "    model.load_state_dict(sd)\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more")
    # An unstaged edit, a staged edit, and a new file, all in files torchfix would change.
    unstaged = "# unstaged\n" + (repo / "src/train.py").read_text()
    (repo / "src/train.py").write_text(unstaged)
    staged = "# staged\n" + (repo / "src/more.py").read_text()
    (repo / "src/more.py").write_text(staged)
    git(repo, "add", "src/more.py")
    write_files(repo, {"src/new.py": "from torch import nn\n\n\n"
                                     "def h(model: nn.Module, sd):\n"
                                     "    model.load_state_dict(sd)\n"})
    status_before = status(repo)

    result = _commit(repo, "--allow-dirty")

    assert result.exit_code == 0, result.stderr
    assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["src/evaluate.py"]
    assert (repo / "src/train.py").read_text() == unstaged
    assert (repo / "src/more.py").read_text() == staged
    assert git(repo, "diff", "--cached", "--name-only").split() == ["src/more.py"]
    assert status(repo) == status_before
    for path, why in [("src/more.py", "has uncommitted changes"),
                      ("src/new.py", "not committed to git (untracked)"),
                      ("src/train.py", "has uncommitted changes")]:
        assert f"{path}: {why}" in result.stderr


def test_rerun_on_the_branch_does_nothing_and_says_so(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    assert _commit(repo).exit_code == 0
    tip = head(repo)
    result = _commit(repo)
    assert result.exit_code == 0, result.stderr
    assert f"Nothing to do: branch torchfix/{STRICT} is up to date" in result.stderr
    assert head(repo) == tip

    git(repo, "checkout", "-q", "main")  # back on main: the branch already holds it all
    result = _commit(repo)
    assert result.exit_code == 0, result.stderr
    assert f"branch torchfix/{STRICT} already holds these changes" in result.stderr
    assert head(repo, f"torchfix/{STRICT}") == tip
    assert git(repo, "branch", "--show-current").strip() == "main"


def test_new_changes_on_a_torchfix_branch_go_on_top(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    assert _commit(repo).exit_code == 0
    tip = head(repo)
    write_files(repo, {"src/later.py": "from torch import nn\n\n\n"
                                       "def f(model: nn.Module, sd):\n"
                                       "    model.load_state_dict(sd)\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a commit of the user's own")
    mine = head(repo)
    result = _commit(repo)
    assert result.exit_code == 0, result.stderr
    assert f"Added to branch torchfix/{STRICT} with 1 commit" in result.stderr
    assert head(repo, "HEAD~1") == mine and head(repo, "HEAD~2") == tip  # nothing rewritten


def test_branches_torchfix_did_not_create_are_not_touched(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    git(repo, "branch", f"torchfix/{STRICT}")
    result = _commit(repo)
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"torchfix: error: branch torchfix/{STRICT} already exists (it was not created by "
        "torchfix; choose another name with --branch)")

    result = _commit(repo, "--branch", "main")
    assert result.exit_code == 2
    assert "branch main was not created by torchfix; not touched" in result.stderr
    assert head(repo, "main") == head(repo, f"torchfix/{STRICT}")

    assert _commit(repo, "--branch", "bad..name").exit_code == 2


def test_detached_head_and_not_a_repository(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    git(repo, "checkout", "-q", "--detach")
    result = _commit(repo)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"torchfix: error: detached HEAD in {repo}")
    plain = tmp_path / "plain"
    plain.mkdir()
    result = _commit(plain)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"torchfix: error: not a git repository: {plain}"
    empty = tmp_path / "empty"
    git(tmp_path, "init", "-q", str(empty))
    result = _commit(empty)
    assert result.exit_code == 2
    assert "has no commits yet" in result.stderr


def test_no_identity_is_an_error_and_author_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "repo")
    isolate_git(monkeypatch, tmp_path / "bare-home", identity=False)
    result = _commit(repo)
    assert result.exit_code == 2
    assert "no git identity is configured" in result.stderr
    assert status(repo) == "" and git(repo, "branch", "--show-current").strip() == "main"
    result = _commit(repo, "--author", "Migration Bot <bot@example.org>")
    assert result.exit_code == 0, result.stderr
    assert git(repo, "log", "-1", "--format=%an <%ae>|%cn <%ce>").strip() == (
        "Migration Bot <bot@example.org>|Migration Bot <bot@example.org>")


def _python(code: str) -> str:
    return f"{sys.executable} -c \"{code}\""


def test_verify_failure_rolls_back_and_commits_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    base = head(repo)
    check = ("import sys, pathlib; t = pathlib.Path('src/train.py').read_text(); "
             "print('checking'); sys.exit(1 if 'strict=True' in t else 0)")
    result = _commit(repo, "--verify", _python(check))
    assert result.exit_code == 1
    assert "passed before the rewrite and failed (exit 1) after it; rolled back" in result.stderr
    assert f"({STRICT})" in result.stderr and "| checking" in result.stderr
    assert head(repo) == base and status(repo) == ""
    assert git(repo, "branch", "--list").split() == ["*", "main"]


def test_verify_that_passes_commits(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    result = _commit(repo, "--verify", _python("print(1)"), "--verify-timeout", "60")
    assert result.exit_code == 0, result.stderr
    assert "passed before and after the rewrite" in result.stderr
    assert len(_subjects(repo, "main..HEAD")) == 1


def test_verify_runs_without_a_shell_unless_asked(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    result = _commit(repo, "--verify", "true && false")  # "true" given two arguments: passes
    assert result.exit_code == 0, result.stderr
    other = make_repo(tmp_path / "other")
    result = _commit(other, "--verify", "grep -q strict=True src/train.py || true && "
                     "! grep -q strict=True src/train.py", "--verify-shell")
    assert result.exit_code == 1
    assert "rolled back" in result.stderr
    assert "nothing committed. It printed nothing." in result.stderr  # grep -q is silent


def test_verify_timeout_and_missing_command(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    result = _commit(repo, "--verify", _python("import time; time.sleep(30)"),
                     "--verify-timeout", "1")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "torchfix: error: verify timed out after 1s before the rewrite; nothing committed "
        "(raise --verify-timeout?)")
    assert status(repo) == "" and git(repo, "branch", "--show-current").strip() == "main"
    result = _commit(repo, "--verify", "no-such-command-torchfix --flag")
    assert result.exit_code == 2
    assert "verify command not found: no-such-command-torchfix" in result.stderr


def test_verify_timeout_after_the_rewrite_rolls_back(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    # Quick before the rewrite (a shell and grep start fast even on a loaded machine),
    # stuck after it.
    slow_when_rewritten = "grep -q strict=True src/train.py && sleep 30 || true"
    result = _commit(repo, "--verify", slow_when_rewritten, "--verify-shell",
                     "--verify-timeout", "3")
    assert result.exit_code == 1
    assert "timed out after 3s after it; rolled back" in result.stderr
    assert status(repo) == ""
