"""`torchfix apply --patch-dir DIR`: a `git format-patch` series, one patch per codemod,
that `git am` applies on the commit it was made from; the repository is left as it was."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from git_helpers import (
    EMAIL,
    STRICT_FILES,
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

from torchfix.golden import SINGLE_FILE_REQUIREMENTS, discover_cases
from torchfix.rewrite import registry


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def _repository_state(repo: Path) -> tuple[str, str, str, str]:
    """Everything a patch run must leave alone: refs, index, working tree, object count."""
    return (
        git(repo, "for-each-ref"),
        git(repo, "ls-files", "-s", "--debug"),
        status(repo) + "".join(p.read_text() for p in sorted(repo.rglob("*.py"))),
        git(repo, "count-objects", "-v"),
    )


def _am(repo: Path, patches: list[Path]) -> None:
    for patch in patches:
        git(repo, "apply", "--check", str(patch))
        git(repo, "am", "-q", str(patch))


def _tree_after_apply(tmp_path: Path, files: dict[str, str | bytes], *args: str) -> str:
    """The tree `torchfix apply` gives, to compare with what the patches give."""
    copy = make_repo(tmp_path / "apply-copy", files)
    assert torchfix("apply", "--quiet", "--jobs", "1", *args, ".", cwd=copy).exit_code == 0
    git(copy, "add", "-A")
    return git(copy, "write-tree").strip()


def test_patch_per_codemod_applies_with_git_am(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    before = _repository_state(repo)
    base = head(repo)
    out = tmp_path / "patches"

    result = torchfix("apply", "--patch-dir", str(out), "--jobs", "1", ".", cwd=repo)

    assert result.exit_code == 0, result.stderr
    assert _repository_state(repo) == before  # no file, index entry, ref or object added
    patches = sorted(out.glob("*.patch"))
    assert [p.name for p in patches] == ["0001-strict-load-state-dict.patch"]
    text = patches[0].read_text()
    assert re.match(r"From [0-9a-f]{40} Mon Sep 17 00:00:00 2001\n", text)  # mbox header
    assert f"From: {USER} <{EMAIL}>" in text
    assert re.search(r"^Date: .+", text, re.M)
    subject = f"Subject: [PATCH] torchfix: {registry.get('strict-load-state-dict').summary}"
    assert subject.rstrip(".") in " ".join(text.split())  # a long subject header is folded
    assert "A checkpoint whose keys do not match the model is a bug" in text  # why
    assert "- src/evaluate.py:5: pass strict=True" in text  # what, where
    assert "- src/train.py:5: pass strict=True" in text
    assert "Torchfix-Codemod: strict-load-state-dict (2 changes in 2 files)" in text
    assert "untouched.py" not in text

    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    _am(clone, patches)
    assert head(clone, "HEAD~1") == base
    assert git(clone, "log", "-1", "--format=%an <%ae>%n%s").splitlines() == [
        f"{USER} <{EMAIL}>",
        f"torchfix: {registry.get('strict-load-state-dict').summary.rstrip('.')}",
    ]
    assert git(clone, "rev-parse", "HEAD^{tree}").strip() == _tree_after_apply(
        tmp_path, STRICT_FILES)


def test_two_codemods_in_one_file_give_two_patches_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_test_codemod(monkeypatch)
    files: dict[str, str | bytes] = {
        "train.py": (
            "import torch\n\n\ndef resume(model: torch.nn.Module, path):\n"
            "    model.load_state_dict(torch.load(path))\n"
        ),
        "only_load.py": "import torch\n\nstate = torch.load('x.pt')\n",
    }
    repo = make_repo(tmp_path / "repo", files)
    out = tmp_path / "patches"

    # The stand-in, not load-weights-only (which would make the same change first).
    chosen = ("--select", "strict-load-state-dict,test-weights-only")
    result = torchfix("apply", "--patch-dir", str(out), "--jobs", "1", *chosen, ".", cwd=repo)

    assert result.exit_code == 0, result.stderr
    patches = sorted(out.glob("*.patch"))
    assert [p.name for p in patches] == [
        "0001-strict-load-state-dict.patch", "0002-test-weights-only.patch"]
    assert "Wrote 2 patches against" in result.stderr
    first, second = (p.read_text() for p in patches)
    assert "[PATCH 1/2]" in first and "[PATCH 2/2]" in second
    # Each patch holds its own codemod's edit and nothing of the other's.
    assert "+    model.load_state_dict(torch.load(path), strict=True)" in first
    assert "weights_only" not in first
    assert "+    model.load_state_dict(torch.load(path, weights_only=True), strict=True)" in second
    assert "only_load.py" in second and "only_load.py" not in first
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    _am(clone, patches)
    assert git(clone, "rev-parse", "HEAD^{tree}").strip() == _tree_after_apply(
        tmp_path, files, *chosen)

    squashed = tmp_path / "squashed"
    result = torchfix("apply", "--patch-dir", str(squashed), "--squash", "--jobs", "1",
                      *chosen, ".", cwd=repo)
    assert result.exit_code == 0, result.stderr
    (patch,) = squashed.glob("*.patch")
    assert patch.name == "0001-torchfix.patch"
    text = patch.read_text()
    assert "Torchfix-Codemod: strict-load-state-dict (1 change in 1 file)" in text
    assert "Torchfix-Codemod: test-weights-only (2 changes in 2 files)" in text


def _positive_golden_cases() -> list[tuple[str, Path, str, list[str]]]:
    cases = []
    seen: set[str] = set()
    for case in discover_cases():
        args, filename = case.directives()
        if case.expected_path is None or case.codemod in seen or args or \
                not case.input_path.is_file():  # a folder case is a project of its own
            continue
        seen.add(case.codemod)
        cases.append((case.codemod, case.input_path, filename, args))
    return cases


def test_every_codemod_gets_its_own_patch(tmp_path: Path) -> None:
    """With the real codemods (however many there are): one input each, one patch each."""
    cases = _positive_golden_cases()
    files: dict[str, str | bytes] = {
        f"{codemod}/{filename}": path.read_bytes() for codemod, path, filename, _ in cases
    }
    files["requirements.txt"] = SINGLE_FILE_REQUIREMENTS  # what the one-file cases assume
    repo = make_repo(tmp_path / "repo", files)
    out = tmp_path / "patches"
    result = torchfix("apply", "--patch-dir", str(out), "--select", "ALL", "--jobs", "1", ".",
                      cwd=repo)
    assert result.exit_code == 0, result.stderr
    patches = sorted(out.glob("*.patch"))
    # One patch per codemod that changed something, numbered in the order codemods run;
    # every codemod with a case is among them (another may act on its input too).
    names = [p.name.split("-", 1)[1].removesuffix(".patch") for p in patches]
    assert [p.name[:4] for p in patches] == [f"{n:04d}" for n in range(1, len(patches) + 1)]
    order = [c.name for c in registry.all_codemods()]
    assert names == sorted(set(names), key=order.index)
    assert {case[0] for case in cases} <= set(names)
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    _am(clone, patches)
    assert git(clone, "rev-parse", "HEAD^{tree}").strip() == _tree_after_apply(
        tmp_path, files, "--select", "ALL")


def test_files_with_uncommitted_changes_are_left_out(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    (repo / "src/evaluate.py").write_text(
        (repo / "src/evaluate.py").read_text() + "# work in progress\n")
    out = tmp_path / "patches"
    result = torchfix("apply", "--patch-dir", str(out), "--jobs", "1", ".", cwd=repo)
    assert result.exit_code == 0, result.stderr
    assert "src/evaluate.py: has uncommitted changes" in result.stderr
    (patch,) = out.glob("*.patch")
    assert "evaluate.py" not in patch.read_text()
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    _am(clone, [patch])  # still applies on HEAD
    assert "# work in progress" in (repo / "src/evaluate.py").read_text()


def test_a_second_run_replaces_its_patches_but_not_foreign_ones(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    out = tmp_path / "patches"
    assert torchfix("apply", "--patch-dir", str(out), "-q", ".", cwd=repo).exit_code == 0
    assert torchfix("apply", "--patch-dir", str(out), "-q", ".", cwd=repo).exit_code == 0
    assert len(list(out.glob("*.patch"))) == 1

    (out / "0001-mine.patch").write_text("From somebody else\n")
    result = torchfix("apply", "--patch-dir", str(out), "-q", ".", cwd=repo)
    assert result.exit_code == 2
    assert "already holds patches torchfix did not write (0001-mine.patch)" in result.stderr


def test_nothing_to_change_writes_no_patch(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": "x = 1\n"})
    out = tmp_path / "patches"
    result = torchfix("apply", "--patch-dir", str(out), ".", cwd=repo)
    assert result.exit_code == 0
    assert "no patches written" in result.stderr
    assert not list(out.glob("*.patch")) if out.exists() else True


def test_no_identity_is_an_error_unless_author_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "repo")
    isolate_git(monkeypatch, tmp_path / "home-without-identity", identity=False)
    out = tmp_path / "patches"
    result = torchfix("apply", "--patch-dir", str(out), ".", cwd=repo)
    assert result.exit_code == 2
    assert result.stderr.startswith("torchfix: error: no git identity is configured")
    assert "Traceback" not in result.stderr
    result = torchfix("apply", "--patch-dir", str(out), "--author", "Bot <bot@example.org>",
                      ".", cwd=repo)
    assert result.exit_code == 0, result.stderr
    assert "From: Bot <bot@example.org>" in next(out.glob("*.patch")).read_text()


def test_patches_work_on_a_detached_head_and_from_a_subfolder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write_files(repo, {"src/later.py": "from torch import nn\n\n\n"
                                       "def f(model: nn.Module, sd):\n"
                                       "    model.load_state_dict(sd)\n"})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "later")
    git(repo, "checkout", "-q", "--detach", "HEAD~1")
    out = tmp_path / "patches"
    result = torchfix("apply", "--patch-dir", str(out), "--jobs", "1", ".", cwd=repo / "src")
    assert result.exit_code == 0, result.stderr
    (patch,) = out.glob("*.patch")
    assert "later.py" not in patch.read_text()
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    git(clone, "checkout", "-q", head(repo))
    _am(clone, [patch])


def test_usage_errors(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    for args, message in [
        (["--patch-dir", "p", "--commit"], "choose one of --dry-run, --patch-dir and --commit"),
        (["--patch-dir", "p", "--dry-run"], "choose one of"),
        (["--squash"], "--squash and --author need --patch-dir or --commit"),
        (["--patch-dir", "p", "--branch", "x"], "--branch, --allow-dirty and --verify need"),
        (["--patch-dir", "p", "--author", "nobody"], "--author must look like 'Name <email>'"),
    ]:
        result = torchfix("apply", *args, ".", cwd=repo)
        assert result.exit_code == 2, (args, result.stderr)
        assert message in result.stderr, shlex.join(args)
    outside = tmp_path / "not-a-repo"
    outside.mkdir()
    result = torchfix("apply", "--patch-dir", "p", ".", cwd=outside)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"torchfix: error: not a git repository: {outside}"
