"""`apply` and its run records never write outside the project root: not through a
repository's own configuration, a committed symlink, or a symlinked folder on the
command line. Only the user's own --record-dir may point elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest
from git_helpers import isolate_git, make_repo, torchfix

from conftest import FIXED, NEEDS_FIX

RUNS = Path(".torchfix") / "runs"


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def listing(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


# -- record-dir from the configuration ---------------------------------------------------------


@pytest.mark.parametrize("value", ["/abs/records", "../../x", "~/records", "runs/../../x"])
def test_a_configured_record_dir_outside_the_project_is_a_configuration_error(
    tmp_path: Path, value: str
) -> None:
    repo = make_repo(tmp_path / "a" / "b" / "repo", {
        "pyproject.toml": f'[tool.torchfix]\nrecord-dir = "{value}"\n', "train.py": NEEDS_FIX,
    })
    before = listing(tmp_path)
    for command in (("apply", "."), ("check", "."), ("undo",)):
        result = torchfix(*command, cwd=repo)
        assert result.exit_code == 2, (command, result.stderr)
        assert result.stderr.strip().splitlines() == [
            f"torchfix: error: {repo / 'pyproject.toml'}: [tool.torchfix] record-dir must be a "
            f"folder inside the project, relative to this file; {value!r} leads outside it "
            "(--record-dir on the command line may point anywhere)"
        ]
    assert listing(tmp_path) == before
    assert (repo / "train.py").read_text() == NEEDS_FIX


def test_a_configured_record_dir_through_a_symlink_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    repo = make_repo(tmp_path / "repo", {
        "pyproject.toml": '[tool.torchfix]\nrecord-dir = "records/runs"\n', "train.py": NEEDS_FIX,
    })
    (repo / "records").symlink_to(outside)
    result = torchfix("apply", ".", cwd=repo)
    assert result.exit_code == 2
    assert "leads outside it" in result.stderr
    assert list(outside.iterdir()) == []
    assert (repo / "train.py").read_text() == NEEDS_FIX


def test_a_symlinked_torchfix_folder_leading_outside_is_not_used(tmp_path: Path) -> None:
    # A repository may commit `.torchfix` as a symlink; the default record dir must not
    # follow it out of the project.
    outside = tmp_path / "outside"
    outside.mkdir()
    repo = make_repo(tmp_path / "repo", {"train.py": NEEDS_FIX})
    (repo / ".torchfix").symlink_to(outside)
    result = torchfix("apply", ".", cwd=repo)
    assert result.exit_code == 2
    assert "leads outside the project root" in result.stderr
    assert list(outside.iterdir()) == []
    assert (repo / "train.py").read_text() == NEEDS_FIX
    undone = torchfix("undo", cwd=repo)
    assert undone.exit_code == 2 and "leads outside the project root" in undone.stderr


def test_the_command_line_record_dir_may_point_outside(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {
        "pyproject.toml": '[tool.torchfix]\nrecord-dir = "records"\n', "train.py": NEEDS_FIX,
    })
    elsewhere = tmp_path / "elsewhere"
    assert torchfix("apply", "--record-dir", str(elsewhere), ".", cwd=repo).exit_code == 0
    assert len(list(elsewhere.iterdir())) == 1
    assert torchfix("undo", "--record-dir", str(elsewhere), cwd=repo).exit_code == 0
    assert (repo / "train.py").read_text() == NEEDS_FIX


# -- explicit paths through symlinks -----------------------------------------------------------


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """A git project whose `linkdir` leads to a folder outside it."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.py").write_text(NEEDS_FIX)
    repo = make_repo(tmp_path / "repo", {"inside.py": NEEDS_FIX})
    (repo / "linkdir").symlink_to(Path("..") / "elsewhere")
    return repo, elsewhere


@pytest.mark.parametrize("extra", [[], ["--no-record"]])
def test_a_file_through_a_symlinked_folder_leaving_the_project_is_not_written(
    linked: tuple[Path, Path], extra: list[str]
) -> None:
    repo, elsewhere = linked
    result = torchfix("apply", *extra, "linkdir/x.py", "inside.py", cwd=repo)
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert errors == [
        f"{elsewhere / 'x.py'}: error: its real path {elsewhere / 'x.py'} is outside the "
        f"project root {repo}; not written"
    ]
    assert (elsewhere / "x.py").read_text() == NEEDS_FIX
    assert sorted(p.name for p in elsewhere.iterdir()) == ["x.py"]  # no run folder there
    assert (repo / "inside.py").read_text() == FIXED  # the rest of the run goes on
    assert "1 changed" in result.stderr


def test_a_symlinked_folder_alone_does_not_become_the_project(linked: tuple[Path, Path]) -> None:
    repo, elsewhere = linked
    result = torchfix("apply", "linkdir/x.py", cwd=repo)
    assert result.exit_code == 1
    assert "is outside the project root" in result.stderr
    assert sorted(p.name for p in elsewhere.iterdir()) == ["x.py"]


def test_outside_git_the_configured_project_holds_the_symlinked_folder(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.torchfix]\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "x.py").write_text(NEEDS_FIX)
    (project / "linkdir").symlink_to(elsewhere)
    result = torchfix("apply", "linkdir/x.py", cwd=project)
    assert result.exit_code == 1 and "is outside the project root" in result.stderr
    assert sorted(p.name for p in elsewhere.iterdir()) == ["x.py"]


def test_a_symlinked_file_inside_the_project_is_written_through(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"real.py": NEEDS_FIX})
    (repo / "link.py").symlink_to("real.py")
    assert torchfix("apply", "link.py", cwd=repo).exit_code == 0
    assert (repo / "link.py").is_symlink() and (repo / "real.py").read_text() == FIXED


def test_a_symlinked_file_leading_outside_is_not_written(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text(NEEDS_FIX)
    repo = make_repo(tmp_path / "repo", {"a.py": ""})
    (repo / "link.py").symlink_to(outside)
    result = torchfix("apply", "link.py", cwd=repo)
    assert result.exit_code == 1
    assert f"link.py: error: its real path {outside} is outside the project root" in (
        result.stderr)
    assert outside.read_text() == NEEDS_FIX
