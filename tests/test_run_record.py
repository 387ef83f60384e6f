"""Run records: every `torchfix apply` that writes leaves its exact change as a patch that
`git apply -R` / `patch -p1 -R` / `torchfix undo` take back, in git or not."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from git_helpers import git, isolate_git, make_repo, status, torchfix, write_files
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from torchfix import __version__
from torchfix.engine.writing import WriteError
from torchfix.git import record
from torchfix.git.diffs import parse_patch, reverse_apply, unified_diff

from conftest import CLEAN, FIXED, NEEDS_FIX

RUNS = Path(".torchfix") / "runs"

# One file per byte-level hazard; the strict-load-state-dict codemod changes each one.
AWKWARD: dict[str, bytes] = {
    "crlf.py": NEEDS_FIX.replace("\n", "\r\n").encode(),
    "bom.py": b"\xef\xbb\xbf" + NEEDS_FIX.encode(),
    "no_newline.py": NEEDS_FIX.rstrip("\n").encode(),
    "latin1.py": (
        "# -*- coding: latin-1 -*-\n# caf\u00e9 cr\u00e8me\n" + NEEDS_FIX
        + "NAME = '\u00e9t\u00e9'\n"
    ).encode("latin-1"),
    "src/train.py": NEEDS_FIX.encode(),
}


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def apply(*args: str, cwd: Path, code: int = 0):  # type: ignore[no-untyped-def]
    result = torchfix("apply", "--jobs", "1", *args, cwd=cwd)
    assert result.exit_code == code, result.stderr
    return result


def undo(*args: str, cwd: Path, code: int = 0):  # type: ignore[no-untyped-def]
    result = torchfix("undo", *args, cwd=cwd)
    assert result.exit_code == code, result.stderr
    return result


def run_folders(record_dir: Path) -> list[Path]:
    if not record_dir.is_dir():
        return []
    return sorted(p for p in record_dir.iterdir() if p.is_dir())


def only_run(record_dir: Path) -> Path:
    (folder,) = run_folders(record_dir)
    return folder


def snapshot(root: Path, names: object) -> dict[str, tuple[bytes, int, int]]:
    """Bytes, mode and mtime of each file: what "touching nothing" must leave alone."""
    out = {}
    for name in names:  # type: ignore[attr-defined]
        status_ = (root / name).stat()
        out[name] = ((root / name).read_bytes(), status_.st_mode, status_.st_mtime_ns)
    return out


def contents(root: Path, names: object) -> dict[str, bytes]:
    return {name: (root / name).read_bytes() for name in names}  # type: ignore[attr-defined]


def outside_git(tmp_path: Path) -> Path:
    folder = tmp_path / "plain"
    folder.mkdir()
    probe = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=folder,
                           capture_output=True)
    if probe.returncode == 0:
        pytest.skip(f"{tmp_path} is inside a git repository")
    return folder


# -- what is recorded ------------------------------------------------------------------------


def test_a_run_records_its_patch_and_summary_at_the_repository_root(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {**AWKWARD, "src/clean.py": CLEAN})
    expected_patch = torchfix("diff", "--quiet", "--jobs", "1", ".", cwd=repo / "src")
    assert expected_patch.exit_code == 0

    result = apply("--unsafe-fixes", ".", cwd=repo / "src")  # from a subfolder

    run = only_run(repo / RUNS)
    patch = (run / "changes.patch").read_bytes()
    assert patch.startswith(b"--- a/src/train.py\n+++ b/src/train.py\n")
    # One implementation: the record is exactly what `torchfix diff` printed before the run.
    assert patch == expected_patch.stdout_bytes
    summary = json.loads((run / "run.json").read_text())
    assert summary["state"] == "done" and summary["undone"] is None
    assert summary["torchfix"] == __version__
    assert summary["paths"] == ["src"]
    assert summary["git_head"] == git(repo, "rev-parse", "HEAD").strip()
    assert summary["settings"]["unsafe_fixes"] is True
    assert "strict-load-state-dict" in summary["settings"]["codemods"]
    assert summary["codemods"] == {"strict-load-state-dict": 1}
    assert (summary["files_changed"], summary["changes"]) == (1, 1)
    assert [entry["path"] for entry in summary["files"]] == ["src/train.py"]
    assert not (run / "pending.patch").exists()
    # The closing summary names the patch (as every path: relative to the cwd when inside
    # it, else absolute) and how to take the run back.
    assert f"recorded {run / 'changes.patch'} (undo: torchfix undo)" in result.stderr
    # git never sees the record.
    assert status(repo) == " M src/train.py\n"
    assert "!! .torchfix/" in git(repo, "status", "--porcelain", "--ignored")


def test_the_torchfix_folder_ignores_itself_in_git(tmp_path: Path) -> None:
    """`.torchfix/` carries a `.gitignore` of `*` (as `.ruff_cache/` does): git sees only
    the rewritten files, the whole folder is ignored (not only each run's contents), and
    no project has to list it in its own .gitignore."""
    repo = make_repo(tmp_path / "repo", {"pkg/a.py": NEEDS_FIX, "pkg/b.py": NEEDS_FIX,
                                         "pkg/clean.py": CLEAN})
    apply(".", cwd=repo)
    assert (repo / ".torchfix/.gitignore").read_text().splitlines()[-1] == "*"
    assert status(repo) == " M pkg/a.py\n M pkg/b.py\n"
    assert git(repo, "status", "--porcelain", "--untracked-files=all") == status(repo)
    for inside in (".torchfix/runs", ".torchfix/notes.txt"):  # the folder, not only runs
        assert git(repo, "check-ignore", inside).strip() == inside
    git(repo, "add", "-A")  # what a maintainer commits: the rewritten files only
    assert git(repo, "diff", "--cached", "--name-only") == "pkg/a.py\npkg/b.py\n"
    git(repo, "reset", "-q")
    undo(cwd=repo)
    assert status(repo) == ""  # and after undo, nothing at all


def test_a_torchfix_folder_made_before_gets_its_gitignore(tmp_path: Path) -> None:
    """A `.torchfix/runs` an earlier torchfix left gets the folder's `.gitignore` on the
    next run; a `.torchfix` folder holding files of the project's own is left as it is."""
    repo = make_repo(tmp_path / "repo", {"a.py": NEEDS_FIX, "b.py": NEEDS_FIX})
    (repo / RUNS).mkdir(parents=True)
    apply("a.py", cwd=repo)
    assert (repo / ".torchfix/.gitignore").is_file()
    other = make_repo(tmp_path / "other", {"a.py": NEEDS_FIX, ".torchfix/README": "ours\n"})
    apply(".", cwd=other)
    assert not (other / ".torchfix/.gitignore").exists()
    assert status(other) == " M a.py\n"  # each run still ignores itself


def test_json_output_names_the_record(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"train.py": NEEDS_FIX})
    result = apply("--format", "json", ".", cwd=repo)
    run = only_run(repo / RUNS)
    assert json.loads(result.stdout)["summary"]["record"] == {
        "run": run.name,
        "folder": f"{RUNS.as_posix()}/{run.name}",
        "patch": f"{RUNS.as_posix()}/{run.name}/changes.patch",
        "undo": "torchfix undo",
        "pruned": [],
    }
    again = apply("--format", "json", ".", cwd=repo)  # nothing left to change
    assert json.loads(again.stdout)["summary"]["record"] is None


def test_nothing_is_recorded_without_writes_or_with_no_record(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"train.py": NEEDS_FIX, "clean.py": CLEAN})
    for command in (["apply", "--dry-run"], ["diff"], ["check"], ["apply", "--no-record"]):
        torchfix(*command, "--jobs", "1", ".", cwd=repo)
        assert not (repo / ".torchfix").exists(), command
    assert (repo / "train.py").read_text() == FIXED  # --no-record still wrote
    clean = make_repo(tmp_path / "clean", {"clean.py": CLEAN})
    result = apply(".", cwd=clean)
    assert not (clean / ".torchfix").exists()
    assert "recorded" not in result.stderr


def test_git_modes_record_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"train.py": NEEDS_FIX})
    apply("--patch-dir", str(tmp_path / "patches"), ".", cwd=repo)
    apply("--commit", ".", cwd=repo)
    assert not (repo / ".torchfix").exists()


def test_a_file_that_could_not_be_written_is_not_in_the_record(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": NEEDS_FIX, "b.py": NEEDS_FIX})
    (repo / "b.py").chmod(0o444)
    result = apply(".", cwd=repo, code=1)
    assert "b.py: error: file is read-only; not written" in result.stderr
    run = only_run(repo / RUNS)
    assert b"b.py" not in (run / "changes.patch").read_bytes()
    assert [f["path"] for f in json.loads((run / "run.json").read_text())["files"]] == ["a.py"]

    only_b = make_repo(tmp_path / "only-b", {"b.py": NEEDS_FIX})
    (only_b / "b.py").chmod(0o444)
    apply(".", cwd=only_b, code=1)
    assert run_folders(only_b / RUNS) == []  # nothing written: no run folder


def test_an_unusable_record_folder_stops_the_run_before_any_write(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"train.py": NEEDS_FIX})
    (repo / "blocker").write_text("a file where the record folder would go\n")
    result = apply("--record-dir", "blocker/runs", ".", cwd=repo, code=2)
    assert "cannot create the record folder blocker/runs" in result.stderr
    assert "nothing written" in result.stderr
    assert "Traceback" not in result.stderr
    assert (repo / "train.py").read_text() == NEEDS_FIX


# -- taking a run back with git and patch ---------------------------------------------------


def test_git_apply_reverse_restores_every_byte_amid_other_work(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {**AWKWARD, "notes.py": CLEAN})
    # Other uncommitted work: an edited file torchfix leaves alone, and an untracked one.
    (repo / "notes.py").write_text(CLEAN + "# work in progress\n")
    (repo / "scratch.txt").write_text("not committed\n")
    before = contents(repo, [*AWKWARD, "notes.py", "scratch.txt"])
    status_before = status(repo)

    apply(".", cwd=repo)
    patch = only_run(repo / RUNS) / "changes.patch"
    assert all((repo / name).read_bytes() != before[name] for name in AWKWARD)

    git(repo, "apply", "-R", "--check", str(patch))
    git(repo, "apply", "-R", str(patch))
    assert contents(repo, [*AWKWARD, "notes.py", "scratch.txt"]) == before
    assert status(repo) == status_before


def test_a_run_is_taken_back_where_git_converts_line_endings(tmp_path: Path) -> None:
    """Working tree CRLF, repository LF: the record is of the bytes torchfix wrote."""
    repo = make_repo(tmp_path / "repo", {".gitattributes": "*.py text eol=crlf\n",
                                         "train.py": NEEDS_FIX})
    (repo / "train.py").unlink()
    git(repo, "checkout", "train.py")
    before = (repo / "train.py").read_bytes()
    assert before.count(b"\r\n") == NEEDS_FIX.count("\n")

    apply(".", cwd=repo)
    patch = only_run(repo / RUNS) / "changes.patch"
    git(repo, "apply", "-R", "--check", str(patch))
    undo(cwd=repo)
    assert (repo / "train.py").read_bytes() == before
    assert status(repo) == ""


def test_git_apply_on_a_fresh_clone_reproduces_the_run(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", AWKWARD)
    apply(".", cwd=repo)
    run = only_run(repo / RUNS)
    after = contents(repo, AWKWARD)

    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    assert git(clone, "rev-parse", "HEAD").strip() == \
        json.loads((run / "run.json").read_text())["git_head"]
    git(clone, "apply", "--check", str(run / "changes.patch"))
    git(clone, "apply", str(run / "changes.patch"))
    assert contents(clone, AWKWARD) == after


@pytest.mark.skipif(shutil.which("patch") is None, reason="the patch program is not installed")
def test_patch_p1_takes_a_run_back_outside_git(tmp_path: Path) -> None:
    folder = outside_git(tmp_path)
    project = folder / "project"
    write_files(project, AWKWARD)
    before = contents(project, AWKWARD)
    pristine = tmp_path / "pristine"
    shutil.copytree(project, pristine)

    apply("project", cwd=folder)  # from outside the target: paths are relative to it
    run = only_run(project / RUNS)
    patch = run / "changes.patch"
    assert patch.read_bytes().startswith(b"--- a/")
    assert b"--- a/project/" not in patch.read_bytes()
    after = contents(project, AWKWARD)

    def run_patch(*args: str, cwd: Path) -> None:
        done = subprocess.run(["patch", "-p1", "--batch", *args, "-i", str(patch)], cwd=cwd,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr

    run_patch("-R", "--dry-run", cwd=project)
    run_patch("-R", cwd=project)
    assert contents(project, AWKWARD) == before
    run_patch(cwd=pristine)  # forward, on an untouched copy: the run again
    assert contents(pristine, AWKWARD) == after


def test_diff_outside_git_is_relative_to_the_target_folder(tmp_path: Path) -> None:
    folder = outside_git(tmp_path)
    write_files(folder / "project", {"pkg/train.py": NEEDS_FIX})
    result = torchfix("diff", "--quiet", "--jobs", "1", "project", cwd=folder)
    assert result.stdout.startswith("--- a/pkg/train.py\n+++ b/pkg/train.py\n")


# -- torchfix undo ---------------------------------------------------------------------------


def test_undo_restores_the_files_and_marks_the_run(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {**AWKWARD, "notes.py": CLEAN})
    (repo / "crlf.py").chmod(0o751)
    (repo / "notes.py").write_text(CLEAN + "# work in progress\n")
    before = contents(repo, [*AWKWARD, "notes.py"])
    status_before = status(repo)

    apply(".", cwd=repo)
    run = only_run(repo / RUNS)
    result = undo(cwd=repo / "src")  # from a subfolder: the record is at the root

    assert contents(repo, [*AWKWARD, "notes.py"]) == before
    assert stat.S_IMODE((repo / "crlf.py").stat().st_mode) == 0o751
    assert f"restored {repo / 'crlf.py'}" in result.stderr  # outside the cwd: absolute
    assert f"torchfix: undid run {run.name}: {len(AWKWARD)} files restored" in result.stderr
    assert json.loads((run / "run.json").read_text())["undone"] is not None
    assert status(repo) == status_before

    again = undo(cwd=repo, code=2)
    assert again.stderr.strip() == (
        f"torchfix: error: nothing to undo: every run in {RUNS.as_posix()} is undone already"
    )
    named = undo(run.name, cwd=repo, code=2)
    assert f"run {run.name} was undone already" in named.stderr
    assert contents(repo, [*AWKWARD, "notes.py"]) == before


def test_undo_takes_the_latest_run_not_undone_yet(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": NEEDS_FIX})
    apply(".", cwd=repo)
    a_after = (repo / "a.py").read_bytes()
    (repo / "b.py").write_text(NEEDS_FIX)
    apply(".", cwd=repo)
    first, second = run_folders(repo / RUNS)
    assert first.name < second.name

    assert f"undid run {second.name}" in undo(cwd=repo).stderr
    assert ((repo / "a.py").read_bytes(), (repo / "b.py").read_text()) == (a_after, NEEDS_FIX)
    assert f"undid run {first.name}" in undo(cwd=repo).stderr
    assert (repo / "a.py").read_text() == NEEDS_FIX


def test_undo_refuses_and_touches_nothing_if_a_file_changed_since(tmp_path: Path) -> None:
    files = {"a.py": NEEDS_FIX, "b.py": NEEDS_FIX, "c.py": NEEDS_FIX, "d.py": NEEDS_FIX}
    repo = make_repo(tmp_path / "repo", files)
    apply(".", cwd=repo)
    run = only_run(repo / RUNS)
    (repo / "b.py").write_text(FIXED + "# edited after the run\n")
    (repo / "d.py").unlink()
    left = snapshot(repo, ["a.py", "b.py", "c.py"])
    record_before = (run / "run.json").read_bytes()

    result = undo(cwd=repo, code=2)

    assert result.stderr.splitlines() == [
        f"b.py: error: changed since run {run.name}",
        f"d.py: error: removed since run {run.name}",
        f"torchfix: error: nothing undone: 2 of 4 files of run {run.name} are not as the "
        "run left them",
    ]
    assert snapshot(repo, ["a.py", "b.py", "c.py"]) == left
    assert (run / "run.json").read_bytes() == record_before  # not marked undone

    (repo / "b.py").write_text(FIXED)  # put things back as the run left them: undo works
    (repo / "d.py").write_text(FIXED)
    undo(cwd=repo)
    assert contents(repo, files) == {name: NEEDS_FIX.encode() for name in files}


def test_undo_outside_git_by_name_and_by_path(tmp_path: Path) -> None:
    folder = outside_git(tmp_path)
    write_files(folder / "project", {"train.py": NEEDS_FIX})
    apply(".", cwd=folder / "project")
    run = only_run(folder / "project" / RUNS)

    undo(run.name, cwd=folder / "project")
    assert (folder / "project" / "train.py").read_text() == NEEDS_FIX

    apply("project", cwd=folder)
    second = run_folders(folder / "project" / RUNS)[-1]
    # From elsewhere, the path the summary printed works (a folder or its patch file).
    undo(str(second / "changes.patch"), cwd=tmp_path)
    assert (folder / "project" / "train.py").read_text() == NEEDS_FIX


def test_undo_errors_are_one_line_and_touch_nothing(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": NEEDS_FIX})
    assert undo(cwd=repo, code=2).stderr.strip() == (
        f"torchfix: error: nothing to undo: no run recorded in {RUNS.as_posix()}"
    )
    apply(".", cwd=repo)
    run = only_run(repo / RUNS)
    unknown = undo("20990101-000000-000", cwd=repo, code=2)
    assert unknown.stderr.strip() == (
        f"torchfix: error: no run '20990101-000000-000' in {RUNS.as_posix()} "
        f"(latest: {run.name})"
    )

    patch = run / "changes.patch"
    good_patch = patch.read_bytes()
    patch.write_bytes(good_patch.replace(b"+    model", b"+    modal"))
    tampered = undo(cwd=repo, code=2)
    assert "corrupt run record" in tampered.stderr and "Traceback" not in tampered.stderr
    assert (repo / "a.py").read_text() == FIXED
    patch.write_bytes(good_patch)

    (run / "run.json").write_text("{not json")
    corrupt = undo(cwd=repo, code=2)
    assert len(corrupt.stderr.strip().splitlines()) == 1
    assert corrupt.stderr.startswith(
        f"torchfix: error: {RUNS.as_posix()}/{run.name}/run.json: corrupt run record:")
    assert (repo / "a.py").read_text() == FIXED


# -- where records go ------------------------------------------------------------------------


def test_record_dir_from_the_config_and_the_command_line(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {
        "pyproject.toml": '[tool.torchfix]\nrecord-dir = "build-records/torchfix"\n',
        "pkg/a.py": NEEDS_FIX,
    })
    apply(".", cwd=repo / "pkg")  # relative to the config file, not to the cwd
    assert len(run_folders(repo / "build-records/torchfix")) == 1
    assert not (repo / ".torchfix").exists() and not (repo / "pkg/build-records").exists()
    undo(cwd=repo / "pkg")  # undo reads the same configuration
    assert (repo / "pkg/a.py").read_text() == NEEDS_FIX

    result = apply("--record-dir", "../../elsewhere", ".", cwd=repo / "pkg")  # the CLI wins
    run = only_run(tmp_path / "elsewhere")
    assert f"(undo: torchfix undo {run})" in result.stderr
    undo("--record-dir", str(tmp_path / "elsewhere"), cwd=repo)
    assert (repo / "pkg/a.py").read_text() == NEEDS_FIX

    both = torchfix("apply", "--record-dir", "x", "--no-record", ".", cwd=repo)
    assert both.exit_code == 2
    assert "choose one of --record-dir and --no-record" in both.stderr


def test_an_invalid_record_dir_in_the_config_is_a_usage_error(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {
        "pyproject.toml": "[tool.torchfix]\nrecord-dir = 3\n", "a.py": NEEDS_FIX,
    })
    result = apply(".", cwd=repo, code=2)
    assert result.stderr.strip().endswith(
        "pyproject.toml: [tool.torchfix] record-dir must be a folder path (a non-empty string)")
    assert (repo / "a.py").read_text() == NEEDS_FIX


def test_run_names_sort_in_run_order_even_in_one_millisecond(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1_795_000_000_123_000_000]
    monkeypatch.setattr(record.time, "time_ns", lambda: clock[0])
    names = [record._new_run_folder(tmp_path).name for _ in range(3)]
    clock[0] -= 3_600 * 10**9  # the clock goes back an hour
    names.append(record._new_run_folder(tmp_path).name)
    assert names[0] == "20261118-110640-123"
    assert names == sorted(names) and len(set(names)) == 4
    assert names[-1] == "20261118-110640-126"


# -- interrupted and killed runs -------------------------------------------------------------


def _cli(cwd: Path, *args: str) -> object:
    from torchfix.cli import app

    previous = Path.cwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(app, list(args))
    finally:
        os.chdir(previous)


def test_an_interrupted_run_records_what_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": NEEDS_FIX, "b.py": NEEDS_FIX})
    import torchfix.cli.apply as cli

    real_write = cli.write_atomically
    calls: list[Path] = []

    def write_then_interrupt(path: Path, expected: bytes, new: bytes, **options: Path) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_write(path, expected, new, **options)

    monkeypatch.setattr(cli, "write_atomically", write_then_interrupt)
    result = _cli(repo, "apply", "--jobs", "1", ".")
    assert result.exit_code == 130  # type: ignore[attr-defined]  # click's "Aborted!"

    run = only_run(repo / RUNS)
    assert f"recorded {RUNS.as_posix()}/{run.name}/changes.patch (undo: torchfix undo)" \
        in result.stderr  # type: ignore[attr-defined]
    summary = json.loads((run / "run.json").read_text())
    assert (summary["state"], summary["interrupted"]) == ("done", True)
    assert [f["path"] for f in summary["files"]] == ["a.py"]
    assert b"b.py" not in (run / "changes.patch").read_bytes()
    monkeypatch.undo()
    undo(cwd=repo)
    assert contents(repo, ["a.py", "b.py"]) == {"a.py": NEEDS_FIX.encode(),
                                                "b.py": NEEDS_FIX.encode()}


def test_a_killed_run_is_undone_from_its_hashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after writing a.py, before b.py and before the record was finished."""
    repo = make_repo(tmp_path / "repo", {"a.py": NEEDS_FIX, "b.py": NEEDS_FIX})
    import torchfix.cli.apply as cli

    real_write = cli.write_atomically

    def write_a_only(path: Path, expected: bytes, new: bytes, **options: Path) -> None:
        if path.name != "a.py":
            raise WriteError("disk went away")
        real_write(path, expected, new, **options)

    monkeypatch.setattr(cli, "write_atomically", write_a_only)
    monkeypatch.setattr(record.RunRecorder, "finish", lambda self, interrupted=False: None)
    _cli(repo, "apply", "--jobs", "1", ".")
    monkeypatch.undo()

    run = only_run(repo / RUNS)
    summary = json.loads((run / "run.json").read_text())
    assert summary["state"] == "writing"
    assert not (run / "changes.patch").exists()  # nothing claims a change
    assert [f["path"] for f in summary["files"]] == ["a.py", "b.py"]  # nothing is lost

    result = undo(cwd=repo)
    assert "b.py: note: never written (the run was interrupted); left alone" in result.stderr
    assert contents(repo, ["a.py", "b.py"]) == {"a.py": NEEDS_FIX.encode(),
                                                "b.py": NEEDS_FIX.encode()}


# -- keeping the last runs --------------------------------------------------------------------


def test_only_the_last_keep_runs_runs_are_kept_and_apply_says_so(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"train.py": NEEDS_FIX})
    (repo / "pyproject.toml").write_text("[tool.torchfix]\nkeep-runs = 2\n")
    # A run that crashed while writing, older than every other: undo may still need it.
    crashed = repo / RUNS / "20000101-000000-000"
    crashed.mkdir(parents=True)
    (crashed / "run.json").write_text(json.dumps({"state": "writing"}))

    names = []
    for attempt in range(4):
        (repo / "train.py").write_text(NEEDS_FIX)
        result = apply(".", cwd=repo)
        names.append(only_new(repo / RUNS, [*names, crashed.name]))
        # The crashed run is among the oldest, but it is never deleted.
        assert ("deleted 1 older run (keep-runs = 2)" in result.stderr) == (attempt >= 2)
    assert [p.name for p in run_folders(repo / RUNS)] == [crashed.name, *names[-2:]]
    document = json.loads(apply("--format", "json", ".", cwd=repo).stdout)
    assert document["summary"]["record"] is None  # nothing written, nothing recorded
    (repo / "train.py").write_text(NEEDS_FIX)
    document = json.loads(apply("--format", "json", ".", cwd=repo).stdout)
    assert document["summary"]["record"]["pruned"] == [names[-2]]


def test_keep_runs_0_keeps_every_run(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"train.py": NEEDS_FIX})
    (repo / "pyproject.toml").write_text("[tool.torchfix]\nkeep-runs = 0\n")
    for _attempt in range(3):
        (repo / "train.py").write_text(NEEDS_FIX)
        assert "deleted" not in apply(".", cwd=repo).stderr
    assert len(run_folders(repo / RUNS)) == 3


def only_new(record_dir: Path, known: list[str]) -> str:
    (name,) = [p.name for p in run_folders(record_dir) if p.name not in known]
    return name


# -- the patch reads back exactly -------------------------------------------------------------

_LINES = st.sampled_from([
    b"x = 1\n", b"y\r\n", b"lone cr\r", b"-- a/looks like a header\n", b"++ b/too\n",
    b"@@ -1 +1 @@\n", b"\xef\xbb\xbfbom\n", b"caf\xe9\n", b"\\ No newline at end of file\n",
    b"\n", b"",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=14), st.lists(_LINES, max_size=14), st.booleans())
def test_every_patch_reverses_exactly(old_lines: list[bytes], new_lines: list[bytes],
                                      cut: bool) -> None:
    old = b"".join(old_lines)
    new = b"".join(new_lines)
    if cut:
        new = new.rstrip(b"\n")  # a missing final newline
    if old == new:
        return
    patch = unified_diff(old, new, "pkg/a b.py") + unified_diff(new, old, "other.py")
    first, second = parse_patch(patch)
    assert (first.new_path, second.new_path) == ("pkg/a b.py", "other.py")
    assert reverse_apply(first, new) == old
    assert reverse_apply(second, old) == new
