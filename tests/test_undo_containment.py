"""`torchfix undo` never writes outside the project root, whatever a run record says.

A repository can commit a forged `.torchfix/runs/<future run>/` (`git add -f`); a later
plain `torchfix undo` must not "restore" a file outside the project to bytes of the
forger's choosing. Each forged record below would do exactly that if undo trusted it: the
victim's current bytes match the recorded "after" hash, and reversing the patch gives
the recorded "before" bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import pytest
from git_helpers import isolate_git, make_repo, torchfix
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from torchfix.git.diffs import unified_diff

from conftest import FIXED, NEEDS_FIX

RUNS = Path(".torchfix") / "runs"
FORGED = "20991231-235959-999"  # sorts after any real run: a plain `undo` picks it
EVIL = b"evil = True\n"


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def forge(project: Path, root: str, path: str, *, current: bytes = b"",
          patch_path: str | None = None, state: str = "done") -> Path:
    """A run record that turns `path` (holding `current`) into EVIL when undone."""
    folder = project / RUNS / FORGED
    folder.mkdir(parents=True, exist_ok=True)
    document = {
        "format": 1, "run": FORGED, "state": state, "undone": None, "root": root,
        "files": [{"path": path, "before_sha256": sha(EVIL), "after_sha256": sha(current)}],
    }
    (folder / "run.json").write_text(json.dumps(document))
    patch = unified_diff(EVIL, current, patch_path or path)
    (folder / ("changes.patch" if state == "done" else "pending.patch")).write_bytes(patch)
    return folder


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A git project with a file the forged runs could target, and an outside victim."""
    project = make_repo(tmp_path / "project", {"a.py": NEEDS_FIX})
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim").write_bytes(b"")  # empty: its bytes are easy to predict
    (project / "linkdir").symlink_to(outside)
    (project / "link.py").symlink_to(outside / "victim")
    return project, outside


def test_a_genuine_run_is_still_undone(layout: tuple[Path, Path]) -> None:
    project, _outside = layout
    assert torchfix("apply", ".", cwd=project).exit_code == 0
    assert (project / "a.py").read_text() == FIXED
    assert torchfix("undo", cwd=project).exit_code == 0
    assert (project / "a.py").read_text() == NEEDS_FIX


@pytest.mark.parametrize(
    ("root", "path"),
    [
        ("/", "{outside}/victim"),  # the issue's `"root": "/"`
        ("{outside}", "victim"),  # an absolute root elsewhere
        ("../../..", "../outside/victim"),  # a climbing path under the genuine root
        ("../../..", "{outside}/victim"),  # an absolute path
        ("../../..", "linkdir/victim"),  # inside by name, outside through a symlinked folder
        ("../../..", "link.py"),  # a symlinked file leading outside
        ("../../..", "sub/../../outside/victim"),
        ("../../../linkdir", "victim"),  # a root reached through a symlink
    ],
)
def test_a_forged_run_never_writes_outside(layout: tuple[Path, Path], root: str,
                                           path: str) -> None:
    project, outside = layout
    where = str(outside).lstrip("/") if root == "/" else str(outside)
    forge(project, root.format(outside=outside), path.format(outside=where))
    result = torchfix("undo", cwd=project)
    assert result.exit_code == 2, result.stderr
    assert (outside / "victim").read_bytes() == b""
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("torchfix: error: ")
    assert "Traceback" not in result.stderr


def test_a_patch_that_disagrees_with_run_json_is_refused(layout: tuple[Path, Path]) -> None:
    project, _outside = layout
    (project / "b.py").write_bytes(b"")
    # run.json names a.py (whose hash will not match), the patch rewrites b.py.
    forge(project, "../../..", "a.py", patch_path="b.py")
    result = torchfix("undo", cwd=project)
    assert result.exit_code == 2
    assert "which run.json does not list; refused" in result.stderr
    assert (project / "b.py").read_bytes() == b""
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_root_that_differs_from_the_computed_one_is_refused(tmp_path: Path,
                                                              layout: tuple[Path, Path]) -> None:
    project, _outside = layout
    other = make_repo(tmp_path / "other", {"a.py": ""})
    # Inside `other`, the path is fine; but undo in `project` works on `project` only.
    forge(project, str(other), "a.py")
    result = torchfix("undo", cwd=project)
    assert result.exit_code == 2
    assert "the run was recorded for the project root" in result.stderr
    assert (other / "a.py").read_bytes() == b""


def test_a_record_naming_git_internals_is_refused(layout: tuple[Path, Path]) -> None:
    project, _outside = layout
    config = project / ".git" / "config"
    before = config.read_bytes()
    forge(project, "../../..", ".git/config", current=before)
    result = torchfix("undo", cwd=project)
    assert result.exit_code == 2 and "points into a .git folder" in result.stderr
    assert config.read_bytes() == before


# -- property: arbitrary records never write outside -------------------------------------------

_ROOTS = st.sampled_from(["../../..", "/", "{outside}", "..", "../..", "../../../linkdir",
                          "", ".", "{outside}/../project"]) | st.text(max_size=12)
_PATHS = st.sampled_from([
    "victim", "../outside/victim", "../../outside/victim", "{outside}/victim",
    "linkdir/victim", "link.py", "a.py", "./a.py", "sub/../a.py", "a.py/..", ".git/config",
    "..\\outside\\victim", "C:/victim", "{outside_rel}/victim",
]) | st.text(max_size=20)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(root=_ROOTS, paths=st.lists(_PATHS, min_size=1, max_size=3),
       patch_names=st.lists(_PATHS, max_size=3), state=st.sampled_from(["done", "writing"]),
       junk=st.binary(max_size=40), extra=st.dictionaries(st.text(max_size=5),
                                                           st.integers(), max_size=2))
def test_no_record_makes_undo_write_outside(root: str, paths: list[str],
                                            patch_names: list[str], state: str, junk: bytes,
                                            extra: dict[str, int]) -> None:
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        project = base / "project"
        (project / "sub").mkdir(parents=True)
        (project / "a.py").write_bytes(b"")
        outside = base / "outside"
        outside.mkdir()
        (outside / "victim").write_bytes(b"")
        (project / "linkdir").symlink_to(outside)
        (project / "link.py").symlink_to(outside / "victim")

        def fill(text: str) -> str:
            return (text.replace("{outside_rel}", str(outside).lstrip("/"))
                    .replace("{outside}", str(outside)))

        names = [fill(path) for path in paths]
        folder = project / RUNS / FORGED
        folder.mkdir(parents=True)
        document = {
            "format": 1, "run": FORGED, "state": state, "undone": None,
            "root": fill(root),
            "files": [{"path": name, "before_sha256": sha(EVIL), "after_sha256": sha(b"")}
                      for name in names],
            **extra,
        }
        (folder / "run.json").write_text(json.dumps(document))
        # Patches as torchfix writes them (so they would reverse to EVIL), then junk.
        patch = b"".join(unified_diff(EVIL, b"", fill(name))
                         for name in patch_names or names)
        (folder / ("changes.patch" if state == "done" else "pending.patch")).write_bytes(
            patch + junk)
        before = _tree(base, project)

        result = torchfix("undo", cwd=project)

        assert "Traceback" not in result.stderr
        assert _tree(base, project) == before, result.stderr


def _tree(base: Path, project: Path) -> dict[str, bytes | None]:
    """Every file outside the project, with its bytes (None for folders and links)."""
    found: dict[str, bytes | None] = {}
    for folder, dirs, files in os.walk(base):
        here = Path(folder)
        if here == project:
            dirs[:] = []  # inside the project undo may write; that is not the question
            continue
        for name in dirs + files:
            path = here / name
            found[str(path)] = (None if path.is_symlink() or path.is_dir()
                                else path.read_bytes())
    return found
