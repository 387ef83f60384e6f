"""`torchfix diff` output applies with `git apply` at the repository root, wherever it ran."""

from __future__ import annotations

from pathlib import Path

import pytest
from git_helpers import STRICT_FILES, git, isolate_git, make_repo, status, torchfix


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def _apply_at_root(repo: Path, diff: bytes) -> None:
    git(repo, "apply", "--check", input=diff)
    git(repo, "apply", input=diff)


def _expected(tmp_path: Path, files: dict[str, str | bytes]) -> dict[str, bytes]:
    """What `torchfix apply` writes, to compare with what `git apply` makes of the diff."""
    copy = make_repo(tmp_path / "expected", files)
    assert torchfix("apply", "--quiet", "--jobs", "1", ".", cwd=copy).exit_code == 0
    return {name: (copy / name).read_bytes() for name in files}


def _diff(*args: str, cwd: Path) -> bytes:
    result = torchfix("diff", "--quiet", "--jobs", "1", *args, cwd=cwd)
    assert result.exit_code == 0, result.stderr
    return result.stdout_bytes


def test_diff_from_the_root_applies(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    expected = _expected(tmp_path, STRICT_FILES)
    diff = _diff(".", cwd=repo)
    assert b"--- a/src/train.py" in diff
    _apply_at_root(repo, diff)
    assert {name: (repo / name).read_bytes() for name in STRICT_FILES} == expected


def test_diff_from_a_subfolder_applies_at_the_root(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    diff = _diff(".", cwd=repo / "src")
    assert b"+++ b/src/train.py" in diff  # relative to the root, not to src/
    _apply_at_root(repo, diff)
    assert "strict=True" in (repo / "src/train.py").read_text()


def test_diff_of_paths_outside_the_cwd_applies_at_their_root(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    diff = _diff(str(repo / "src" / "train.py"), "../repo/src/evaluate.py", cwd=elsewhere)
    assert b"--- a/src/train.py" in diff and b"--- a/src/evaluate.py" in diff
    _apply_at_root(repo, diff)
    assert status(repo).split() == ["M", "src/evaluate.py", "M", "src/train.py"]


def test_diff_keeps_crlf_missing_newline_and_odd_names(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "crlf.py": b"from torch import nn\r\n\r\n\r\n"
                   b"def f(model: nn.Module, sd):\r\n    model.load_state_dict(sd)\r\n",
        "no_newline.py": b"from torch import nn\n\n\n"
                         b"def f(model: nn.Module, sd):\n    model.load_state_dict(sd)",
        "with space/my model.py": "from torch import nn\n\n\n"
                                  "def f(model: nn.Module, sd):\n    model.load_state_dict(sd)\n",
        "caf\u00e9.py": "from torch import nn\n\n\n"
                        "def f(model: nn.Module, sd):\n    model.load_state_dict(sd)\n",
    }
    repo = make_repo(tmp_path / "repo", files)
    expected = _expected(tmp_path, files)
    _apply_at_root(repo, _diff(".", cwd=repo))
    assert {name: (repo / name).read_bytes() for name in files} == expected


def test_diff_in_a_worktree_applies_at_the_worktree_root(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    worktree = tmp_path / "worktree"
    git(repo, "worktree", "add", "-q", str(worktree))
    diff = _diff(".", cwd=worktree / "src")
    _apply_at_root(worktree, diff)
    assert "strict=True" in (worktree / "src/evaluate.py").read_text()
    assert status(repo) == ""


def test_outside_git_a_file_named_alone_belongs_to_its_project(tmp_path: Path) -> None:
    """An unpacked sdist (no git): one file named alone is read as part of its project,
    so its patch applies at the project's top (`patch -p1`) and the project's settings
    (here ruff's quote style, for a generated message) are the ones the new code follows."""
    project = tmp_path / "sdist"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.ruff.format]\nquote-style = "single"\n')
    (project / "pkg" / "loss.py").write_text(
        "def scale(x, factor):\n    assert factor > 0\n    return x * factor\n"
    )
    # a test of the function too, or nothing shows that no test expects its AssertionError
    (project / "tests").mkdir()
    (project / "tests" / "test_loss.py").write_text(
        "from pkg.loss import scale\n\n\ndef test_scale():\n    assert scale(1, 2) == 2\n")
    diff = _diff("pkg/loss.py", cwd=project)
    assert b"--- a/pkg/loss.py" in diff, diff
    assert b"raise ValueError('expected factor > 0')" in diff, diff
    # A project file above the current folder is not looked for (a stray one in /tmp
    # or a home folder would claim every loose file below it).
    assert b"--- a/loss.py" in _diff("loss.py", cwd=project / "pkg")
