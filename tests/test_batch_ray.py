"""`torchfix batch --executor ray` on a local Ray cluster: the same outcomes, branches,
commits and pull requests as the local executor; a dead worker retried once; an exception
in a task reported as that repository's error; a resumed campaign skipping what is done.

One cluster serves the whole module. Its workers inherit the environment it was started
with, so the module isolates git once (not per test) for the driver and the workers alike,
and points them at a folder of fault plans (see `batch_executors.TEST_FAULTS_ENV`).
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Iterator
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

from torchfix.git.batch_executors import TEST_FAULTS_ENV

from conftest import EXPLICIT_STRICT_CONFIG

ray = pytest.importorskip("ray", reason="ray is not installed (it is in the test extra: "
                                        "pip install -e '.[test]')")

pytestmark = pytest.mark.ray

BRANCH = "torchfix/strict-load-state-dict"
# Ray workers are processes of their own: the suite's in-process default for
# strict-load-state-dict's `explicit-default` does not reach them, so the repositories
# say it in their configuration, as a project adopting that policy would.
REPO_FILES: dict[str, str | bytes] = {**STRICT_FILES, "pyproject.toml": EXPLICIT_STRICT_CONFIG}


@pytest.fixture(scope="module", autouse=True)
def faults(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A local two-CPU Ray cluster for the module; yields the fault-plan folder."""
    folder = tmp_path_factory.mktemp("ray-faults")
    with pytest.MonkeyPatch.context() as env:
        isolate_git(env, tmp_path_factory.mktemp("ray-home"))
        env.setenv(TEST_FAULTS_ENV, str(folder))
        env.delenv("RAY_ADDRESS", raising=False)
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)
        try:
            yield folder
        finally:
            ray.shutdown()


def _remote(root: Path, name: str, files: dict[str, str | bytes] = REPO_FILES) -> Path:
    return make_bare_remote(root / f"{name}.git", make_repo(root / "sources" / name, files))


def _remote_branches(remote: Path) -> list[str]:
    return git(remote, "for-each-ref", "--format=%(refname:short)", "refs/heads").split()


def _campaign(root: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Five repositories, one of each kind of outcome; the same commit ids every time."""
    with monkeypatch.context() as dated:
        dated.setenv("GIT_AUTHOR_DATE", "2026-01-02T03:04:05Z")
        dated.setenv("GIT_COMMITTER_DATE", "2026-01-02T03:04:05Z")
        root.mkdir()
        _remote(root, "vision")  # cloned: changed, pushed
        git(root, "clone", "-q", str(_remote(root, "audio")), "audio")  # migrated in place
        _remote(root, "docs", {"README.py": "x = 1\n"})  # clean
        dirty = make_repo(root / "dirty", REPO_FILES)  # refused: uncommitted changes
        write_files(dirty, {"src/train.py": "# work in progress\n"})
        taken = _remote(root, "taken")  # the push is refused on the driver
        other = root / "somebody"
        git(root, "clone", "-q", str(taken), str(other))
        git(other, "checkout", "-q", "-b", BRANCH)
        write_files(other, {"theirs.py": "x = 2\n"})
        git(other, "add", "-A")
        git(other, "commit", "-q", "-m", "their work")
        git(other, "push", "-q", "origin", BRANCH)
    return ["vision.git", "audio", "docs.git", "dirty", "taken.git"]


def _run(root: Path, targets: list[str], *args: str):
    # Relative targets and folders: a task must resolve them as the driver does.
    return torchfix("batch", *targets, "--workdir", "work", "--push", "origin", "--pr-dir",
                    "prs", "--report", "report.jsonl", "--format", "json", *args, cwd=root)


def _what_a_user_sees(root: Path, result) -> dict[str, object]:
    """Everything the campaign produced, with the campaign's folder written as <root>."""
    rows = json.loads(result.stdout.replace(str(root), "<root>"))["repositories"]
    report = [json.loads(line) for line in
              (root / "report.jsonl").read_text().replace(str(root), "<root>").splitlines()]
    remotes = {}
    for name in ("vision", "audio", "docs", "taken"):
        remote = root / f"{name}.git"
        remotes[name] = {
            branch: (git(remote, "rev-parse", f"{branch}^{{tree}}"),
                     git(remote, "log", "--format=%an <%ae> %cn <%ce>%n%B", f"main..{branch}"))
            for branch in _remote_branches(remote)
        }
    return {
        "exit": result.exit_code,
        "rows": rows,
        "report": sorted(report, key=lambda row: str(row["repository"])),
        "remotes": remotes,
        "audio": (git(root / "audio", "branch", "--show-current"), status(root / "audio")),
        "prs": {path.name: path.read_text() for path in sorted((root / "prs").iterdir())},
        "progress": sorted(line.split("] ", 1)[1].replace(str(root), "<root>")
                           for line in result.stderr.splitlines() if line.startswith("[")),
    }


def test_ray_gives_what_the_local_executor_gives(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    local_root, ray_root = tmp_path / "local", tmp_path / "ray"
    targets = _campaign(local_root, monkeypatch)
    assert _campaign(ray_root, monkeypatch) == targets

    local = _run(local_root, targets, "--executor", "local", "--jobs", "2")
    on_ray = _run(ray_root, targets, "--executor", "ray")

    assert "Traceback" not in on_ray.stdout + on_ray.stderr
    seen = _what_a_user_sees(ray_root, on_ray)
    assert seen == _what_a_user_sees(local_root, local)
    # ... and it is the campaign it should be.
    assert seen["exit"] == 1
    rows = {row["repository"]: row for row in seen["rows"]}
    assert {name: row["status"] for name, row in rows.items()} == {
        "vision": "changed", "audio": "changed", "docs": "clean", "dirty": "error",
        "taken": "error"}
    assert rows["vision"]["details"] == ["pushed to origin (new branch)"]
    assert "has uncommitted changes" in rows["dirty"]["details"][0]
    assert rows["taken"]["details"][0].startswith("push refused: origin already has a branch")
    assert seen["report"] == sorted(seen["rows"], key=lambda row: str(row["repository"]))
    assert _remote_branches(ray_root / "vision.git") == ["main", BRANCH]
    assert git(ray_root / "vision.git", "show", f"{BRANCH}:src/train.py").endswith(
        "model.load_state_dict(sd, strict=True)\n")
    assert sorted(seen["prs"]) == ["audio.md", "vision.md"]  # taken: refused first
    assert "| `strict-load-state-dict` | 2 | 2 |" in seen["prs"]["vision.md"]
    assert len(seen["progress"]) == 5


def test_dead_worker_is_retried_once_and_an_exception_stays_in_its_row(
    tmp_path: Path, faults: Path
) -> None:
    names = ["dies-once", "dies-after-commit", "dies-twice", "raises", "fine"]
    for name in names:
        _remote(tmp_path, name)
    plans = {"dies-once": "exit-before", "dies-after-commit": "exit-after",
             "dies-twice": "exit-before\nexit-before", "raises": "raise"}
    for name, plan in plans.items():
        (faults / name).write_text(plan)

    result = torchfix("batch", *(str(tmp_path / f"{name}.git") for name in names),
                      "--executor", "ray", "--workdir", str(tmp_path / "work"), "--push",
                      "origin", "--pr-dir", str(tmp_path / "prs"), "--format", "json",
                      cwd=tmp_path)

    assert result.exit_code == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert all((faults / name).read_text() == "" for name in plans)  # every fault happened
    rows = {row["repository"]: row for row in json.loads(result.stdout)["repositories"]}
    # Killed before it did anything: the retry does it all.
    assert rows["dies-once"]["status"] == "changed"
    assert rows["dies-once"]["details"] == ["pushed to origin (new branch)"]
    # Killed after committing, before reporting: the retry finds the branch holding the
    # migration, commits nothing more, and the driver pushes it (the worker never did).
    after = rows["dies-after-commit"]
    assert after["status"] == "clean" and after["branch"] == BRANCH
    assert after["details"] == ["up to date: nothing new to commit",
                                "pushed to origin (new branch)"]
    remote = tmp_path / "dies-after-commit.git"
    assert git(remote, "rev-list", "--count", f"main..{BRANCH}").strip() == "1"
    assert head(remote, f"{BRANCH}~1") == head(remote, "main")
    assert (tmp_path / "prs" / "dies-after-commit.md").is_file()
    # Killed on both attempts: an error with the reason, and nothing pushed.
    twice = rows["dies-twice"]
    assert twice["status"] == "error" and not twice["ok"]
    assert twice["details"][0].startswith(
        "the Ray worker died while migrating it, also on the retry: The worker died "
        "unexpectedly while executing this task.")
    assert _remote_branches(tmp_path / "dies-twice.git") == ["main"]
    # An exception inside the task is that repository's outcome, not retried.
    assert rows["raises"]["status"] == "error"
    assert rows["raises"]["details"] == [
        "internal error: RuntimeError: test fault: raised inside the Ray task"]
    assert _remote_branches(tmp_path / "raises.git") == ["main"]
    assert rows["fine"]["status"] == "changed"


def test_resumed_campaign_skips_repositories_already_migrated(tmp_path: Path) -> None:
    for name in ("first", "second", "third"):
        _remote(tmp_path, name)
    everything = ["first.git", "second.git", "third.git"]

    def campaign(targets: list[str], workdir: str = "work"):
        return torchfix("batch", *targets, "--executor", "ray", "--workdir", workdir,
                        "--push", "origin", "--report", "report.jsonl", cwd=tmp_path)

    assert campaign(everything[:2]).exit_code == 0  # then it was interrupted
    tips = {name: head(tmp_path / f"{name}.git", BRANCH) for name in ("first", "second")}

    resumed = campaign(everything)

    assert resumed.exit_code == 0
    report = {row["repository"]: row
              for row in map(json.loads, (tmp_path / "report.jsonl").read_text().splitlines())}
    assert {name: row["status"] for name, row in report.items()} == {
        "first": "clean", "second": "clean", "third": "changed"}
    assert report["first"]["details"] == ["up to date: nothing new to commit",
                                          "origin is up to date"]
    assert {name: head(tmp_path / f"{name}.git", BRANCH) for name in tips} == tips
    assert _remote_branches(tmp_path / "third.git") == ["main", BRANCH]

    # Even with the clones gone (another machine, a cleaned work folder) nothing is
    # committed or pushed twice: the remote already holds the migration.
    shutil.rmtree(tmp_path / "work")
    again = campaign(everything, "fresh-work")
    assert again.exit_code == 0
    report = [json.loads(line) for line in (tmp_path / "report.jsonl").read_text().splitlines()]
    assert all(row["status"] == "clean" for row in report)
    assert all(row["details"] == [f"origin already has these changes on {BRANCH}; not pushed"]
               for row in report)
    assert {name: head(tmp_path / f"{name}.git", BRANCH) for name in tips} == tips
