"""How many repositories a minute does `torchfix batch` migrate, on threads and on Ray?

    python bench/batch_throughput.py                  # 20 repositories, both executors
    python bench/batch_throughput.py --repos 100 --verify "python -m compileall -q ."

Makes N small repositories (each the golden inputs of every codemod, plus untouched
modules), each behind a bare remote as a git host would hold it, then runs the same
campaign (clone, rewrite, commit, push, PR body) once per executor on fresh copies of the
remotes. Each campaign is one `torchfix batch` process, timed end to end: Ray's figure
includes starting and stopping its local cluster, as a user's run would. Needs Ray
(`pip install -e ".[test]"` or `".[ray]"`).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
FILLER = "def add(a, b):\n    return a + b\n\n\ndef scale(x, factor=2.0):\n    return x * factor\n"


def source_files(copies: int = 1) -> dict[str, str]:
    """One changing file per codemod (its first golden case that has an output) and six
    untouched modules, `copies` times over."""
    files = {}
    for copy in range(copies):
        for folder in sorted(path for path in GOLDEN.iterdir() if path.is_dir()):
            for case in sorted(folder.glob("*.in.py")):
                if case.with_name(case.name.replace(".in.py", ".out.py")).exists():
                    files[f"src/p{copy}/{folder.name.replace('-', '_')}.py"] = case.read_text()
                    break
        for number in range(6):
            files[f"src/p{copy}/util_{number}.py"] = FILLER
    return files


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def make_remotes(root: Path, count: int, copies: int) -> list[Path]:
    files = source_files(copies)
    remotes = []
    for number in range(count):
        source = root / "sources" / f"repo-{number:03d}"
        for name, text in files.items():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_text(text)
        git(source, "init", "-q")
        git(source, "add", "-A")
        git(source, "commit", "-q", "-m", "initial")
        remote = root / "pristine" / f"repo-{number:03d}.git"
        remote.parent.mkdir(parents=True, exist_ok=True)
        git(remote.parent, "clone", "-q", "--bare", str(source), remote.name)
        remotes.append(remote)
    return remotes


def campaign(root: Path, executor: str, remotes: list[Path], extra: list[str]) -> float:
    """Seconds for one `torchfix batch` over fresh copies of the remotes."""
    run_root = root / executor
    targets = []
    for remote in remotes:
        copy = run_root / "remotes" / remote.name
        shutil.copytree(remote, copy)
        targets.append(str(copy))
    command = [sys.executable, "-m", "torchfix", "batch", *targets, "--executor", executor,
               "--workdir", str(run_root / "work"), "--push", "origin", "--pr-dir",
               str(run_root / "prs"), "--no-cache", "--format", "json", "--quiet", *extra]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{executor}: exit {done.returncode}\n{done.stderr[-2000:]}")
    rows = json.loads(done.stdout)["repositories"]
    assert all(row["status"] == "changed" for row in rows), rows
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repos", type=int, default=20)
    parser.add_argument("--copies", type=int, default=1,
                        help="repeat each repository's 12 files this many times")
    parser.add_argument("--jobs", type=int, default=None,
                        help="--jobs for the local executor (default: torchfix's, 4)")
    parser.add_argument("--ray-num-cpus", help="--ray-num-cpus for the Ray executor "
                        "(default: torchfix's, 1)")
    parser.add_argument("--verify", help="a --verify command for every repository")
    parser.add_argument("--executors", default="local,ray")
    args = parser.parse_args()
    extra = ["--verify", args.verify] if args.verify else []
    with tempfile.TemporaryDirectory(prefix="torchfix-batch-bench-") as temp:
        root = Path(temp)
        config = root / "gitconfig"
        config.write_text("[user]\n\tname = Bench\n\temail = bench@example.com\n"
                          "[init]\n\tdefaultBranch = main\n")
        os.environ.update(GIT_CONFIG_GLOBAL=str(config), GIT_CONFIG_NOSYSTEM="1")
        remotes = make_remotes(root, args.repos, args.copies)
        print(f"{args.repos} repositories, {len(source_files(args.copies))} files each; "
              f"{os.cpu_count()} CPUs")
        for executor in args.executors.split(","):
            own = []
            if executor == "local" and args.jobs:
                own = ["--jobs", str(args.jobs)]
            if executor == "ray" and args.ray_num_cpus:
                own = ["--ray-num-cpus", args.ray_num_cpus]
            seconds = campaign(root, executor, remotes, extra + own)
            print(f"--executor {executor:<5}  {seconds:6.1f} s  "
                  f"{args.repos / seconds * 60:6.1f} repositories/minute")


if __name__ == "__main__":
    main()
