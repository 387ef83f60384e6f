"""`torchfix batch` options that need no Ray cluster: progress, `--report`, the push pace,
and the one-line error for `--executor ray` without Ray installed."""

from __future__ import annotations

import itertools
import json
import re
import socket
import sys
from pathlib import Path

import pytest
from git_helpers import STRICT_FILES, git, isolate_git, make_bare_remote, make_repo, torchfix

from torchfix.engine.pipeline import RunOptions
from torchfix.git import batch
from torchfix.git.batch_executors import _ray_task
from torchfix.git.gitops import CommitOptions
from torchfix.git.rate_limit import TokenBucket

BRANCH = "torchfix/strict-load-state-dict"


@pytest.fixture(autouse=True)
def _git_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_git(monkeypatch, tmp_path / "home")


def _remotes(tmp_path: Path, *names: str) -> list[str]:
    return [str(make_bare_remote(tmp_path / f"{name}.git",
                                 make_repo(tmp_path / "sources" / name, STRICT_FILES)))
            for name in names]


class FakeTime:
    """A clock that moves only when something sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_token_bucket_spaces_acquisitions_evenly() -> None:
    fake = FakeTime()
    bucket = TokenBucket(30, clock=fake.clock, sleep=fake.sleep)  # one every 2 s
    starts = []
    for _ in range(100):
        bucket.acquire()
        starts.append(fake.now)
        fake.now += 0.3  # the push itself takes a while
    assert fake.sleeps[0] == pytest.approx(1.7)
    assert all(b - a == pytest.approx(2.0) for a, b in itertools.pairwise(starts))
    # Never more than 30 in any minute.
    assert max(sum(start <= t < start + 60 for t in starts) for start in starts) == 30


def test_token_bucket_saves_no_burst_while_idle() -> None:
    fake = FakeTime()
    bucket = TokenBucket(60, clock=fake.clock, sleep=fake.sleep)
    bucket.acquire()
    fake.now += 3600  # an hour without pushes
    assert bucket.acquire() == 0
    assert bucket.acquire() == pytest.approx(1.0)  # still one a second, not 60 at once


def test_progress_report_and_pushes_paced_on_the_driver(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeTime()

    class FakeTimeBucket(TokenBucket):
        def __init__(self, per_minute: float) -> None:
            super().__init__(per_minute, clock=fake.clock, sleep=fake.sleep)

    monkeypatch.setattr(batch, "TokenBucket", FakeTimeBucket)
    targets = _remotes(tmp_path, "one", "two", "three")
    report = tmp_path / "campaign.jsonl"

    result = torchfix("batch", *targets, "--workdir", str(tmp_path / "work"), "--push",
                      "origin", "--max-pushes-per-minute", "6", "--report", str(report),
                      "--format", "json", "--jobs", "2", cwd=tmp_path)

    assert result.exit_code == 0, result.stderr
    assert fake.sleeps == [pytest.approx(10.0), pytest.approx(10.0)]  # 6 a minute
    progress = [line for line in result.stderr.splitlines() if re.match(r"\[\d/3\] ", line)]
    assert [line[:5] for line in progress] == ["[1/3]", "[2/3]", "[3/3]"]
    assert all("changed on " + BRANCH in line for line in progress)
    rows = {row["repository"]: row for row in json.loads(result.stdout)["repositories"]}
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    # One line per repository, in the order they finished (as the progress shows), each
    # the same object as the final JSON's row.
    assert [line["repository"] for line in lines] == [p.split()[1].rstrip(":")
                                                      for p in progress]
    assert {line["repository"]: line for line in lines} == rows
    for name in ("one", "two", "three"):
        assert git(tmp_path / f"{name}.git", "branch", "--list", BRANCH).strip() == BRANCH


def test_report_is_replaced_by_the_next_run(tmp_path: Path) -> None:
    (target,) = _remotes(tmp_path, "project")
    report = tmp_path / "campaign.jsonl"
    report.write_text('{"repository": "from an older campaign"}\n')

    result = torchfix("batch", target, "--workdir", str(tmp_path / "work"), "--report",
                      str(report), cwd=tmp_path)

    assert result.exit_code == 0
    (line,) = report.read_text().splitlines()
    assert json.loads(line)["repository"] == "project"


def test_batch_executor_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (target,) = _remotes(tmp_path, "project")
    for args, message in [
        (["--max-pushes-per-minute", "10"], "--max-pushes-per-minute needs --push REMOTE"),
        (["--ray-num-cpus", "2"], "--ray-address and --ray-num-cpus need --executor ray"),
        (["--report", str(tmp_path / "no" / "such" / "dir" / "r.jsonl")], "cannot write"),
    ]:
        result = torchfix("batch", target, *args, cwd=tmp_path)
        assert result.exit_code == 2, (args, result.stderr)
        assert result.stderr.count("\n") == 1 and message in result.stderr, args

    # Without Ray installed (None in sys.modules makes `import ray` fail).
    monkeypatch.setitem(sys.modules, "ray", None)
    report = tmp_path / "last-campaign.jsonl"
    report.write_text('{"repository": "kept"}\n')
    result = torchfix("batch", target, "--executor", "ray", "--report", str(report),
                      cwd=tmp_path)
    assert result.exit_code == 2
    assert result.stderr == ('torchfix: error: --executor ray needs Ray, an optional extra: '
                             'pip install "torchfix-codemods[ray]"\n')
    assert not (tmp_path / "torchfix-batch").exists()  # nothing was started
    assert report.read_text() == '{"repository": "kept"}\n'


def test_a_ray_address_nobody_answers_at_is_a_one_line_error(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="ray is not installed (it is in the test extra)")
    with socket.socket() as closed:  # a port that was free a moment ago
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    (target,) = _remotes(tmp_path, "project")
    result = torchfix("batch", target, "--executor", "ray", "--ray-address",
                      f"127.0.0.1:{port}", cwd=tmp_path)
    assert result.exit_code == 2
    assert result.stderr == (f"torchfix: error: cannot reach a Ray cluster at 127.0.0.1:{port}: "
                             "Connection refused\n")


def test_work_on_a_filesystem_the_driver_does_not_share_is_an_error(tmp_path: Path) -> None:
    # A Ray task on a node without the driver's folder: the task reports it, not Ray.
    (target,) = batch.read_targets([str(tmp_path / "project.git")], None)
    options = batch.BatchOptions(RunOptions(), CommitOptions(), push="origin")
    prepared = _ray_task(target, (options, options.run), str(tmp_path / "not-here"))
    assert prepared.outcome.status == "error" and prepared.driver is None
    assert prepared.outcome.details[0].startswith(
        f"the driver's folder {tmp_path / 'not-here'} is not on this Ray worker's filesystem")
    # A clone the worker made where the driver cannot see it: the push says why.
    steps = batch.DriverSteps(tmp_path / "elsewhere", BRANCH, "0" * 40, True, None)
    outcome = batch.finish_target(batch.Prepared(batch.RepoOutcome("project", "changed"),
                                                 steps), options, None, None)
    assert outcome.status == "error" and not outcome.ok
    assert outcome.details == [f"{tmp_path / 'elsewhere'} is not visible on the driver, which "
                               "pushes: put --workdir on a filesystem the driver and the "
                               "workers share"]
