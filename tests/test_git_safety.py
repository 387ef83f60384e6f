"""Nothing the user passes to `batch` reaches git as an option or as a command: remotes
and targets starting with `-` and transports that run commands (`ext::`) are refused
before git runs, with one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from git_helpers import STRICT_FILES, git, isolate_git, make_repo, torchfix

from torchfix.git.batch import RepoOutcome, Target, _open
from torchfix.git.gitops import GitError, Repository, push_branch

# As in the issue: git's ls-remote/push would run this through the shell.
UPLOAD_PACK = "--upload-pack=touch${IFS}pwned;@h:"


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def _markers(tmp_path: Path) -> list[Path]:
    return list(tmp_path.rglob("pwned"))


@pytest.mark.parametrize("form", ["separate", "joined"])
def test_a_push_remote_starting_with_a_dash_is_refused(tmp_path: Path, form: str) -> None:
    repo = make_repo(tmp_path / "repo", STRICT_FILES)
    push = ["--push", UPLOAD_PACK] if form == "separate" else [f"--push={UPLOAD_PACK}"]
    result = torchfix("batch", "--workdir", str(tmp_path / "work"), *push, str(repo),
                      cwd=tmp_path)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert result.stderr.strip() == (
        f"torchfix: error: --push: refused remote {UPLOAD_PACK!r} starts with '-', which "
        "git would read as an option")
    assert _markers(tmp_path) == []
    assert git(repo, "branch", "--format=%(refname:short)").split() == ["main"]


def test_push_refuses_an_option_like_remote_whoever_calls_it(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", STRICT_FILES)
    repository = Repository.open(repo)
    with pytest.raises(GitError) as refused:
        push_branch(repository, UPLOAD_PACK, "main", repository.head())
    assert refused.value.usage
    assert _markers(tmp_path) == []


@pytest.mark.parametrize("target", [UPLOAD_PACK, "ext::sh -c touch% pwned",
                                    "ext://sh -c touch% pwned"])
def test_targets_that_git_would_run_are_refused(tmp_path: Path, target: str) -> None:
    result = torchfix("batch", "--workdir", str(tmp_path / "work"), "--", target, cwd=tmp_path)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert result.stderr.startswith(f"torchfix: error: refused target {target!r}")
    assert "internal error" not in result.stdout + result.stderr
    assert _markers(tmp_path) == [] and not (tmp_path / "work").exists()


def test_a_clone_refused_by_gitpython_is_not_an_internal_error(tmp_path: Path) -> None:
    # Should a command-running URL get past read_targets, the clone is refused with what
    # it is, not reported as a torchfix bug.
    target = Target("ext://sh -c touch% pwned", "pwned", "ext://sh -c touch% pwned")
    with pytest.raises(GitError, match=r"^clone refused: "):
        _open(target, tmp_path / "work", RepoOutcome("pwned"))
    assert _markers(tmp_path) == []
