"""Latency where people feel it: startup, one file, a warm re-run. Ratios to a baseline.

    python bench/latency.py              # 15 runs each; --runs N to change
    python bench/latency.py --project sb3-contrib

Each command is started as a whole process, alternating with the baseline (`python -c
pass` with the same interpreter) so that drift in the machine's speed affects both; the
figures are the medians of CPU seconds (user + system of the finished child, the
operating system's own accounting) and wall seconds, and their ratios to the baseline's.
The goals (issue "Instant feedback"): `--version` ≤ 6x, `check` of a file without
candidates ≤ 8x, with candidates ≤ 15x; a warm re-run of `check` on an unchanged
repository ≤ 10% of the cold run (`.torchfix_cache/` removed before each cold run).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

NO_CANDIDATES = '''\
"""A module with nothing for torchfix: it is read, and parsed only if a trigger is in it."""
import math


def cosine_schedule(step: int, total: int, base: float) -> float:
    return 0.5 * base * (1 + math.cos(math.pi * step / total))
'''
WITH_CANDIDATES = '''\
import torch
from torch import nn


def ppo_loss(policy: nn.Module, batch, clip: float = 0.2):
    logp = policy.log_prob(batch.obs, batch.actions)
    ratio = torch.exp(logp - batch.old_logp)
    clipped = torch.clamp(ratio, 1 - clip, 1 + clip)
    return -torch.min(ratio * batch.adv, clipped * batch.adv).mean()


def resume(policy: nn.Module, path: str) -> None:
    policy.load_state_dict(torch.load(path, weights_only=True))
'''


# As a user runs it: compiled modules are cached (a sandbox may set
# PYTHONDONTWRITEBYTECODE, which would charge every run with compiling torchfix).
ENVIRONMENT = {key: value for key, value in os.environ.items()
               if key != "PYTHONDONTWRITEBYTECODE"}


def run_once(command: Sequence[str], cwd: Path) -> tuple[float, float]:
    """(cpu seconds, wall seconds) of one whole run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False, env=ENVIRONMENT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def paired(command: Sequence[str], baseline: Sequence[str], cwd: Path, runs: int,
           before_each: callable = lambda: None) -> dict[str, float]:
    rows: list[tuple[float, float, float, float]] = []
    run_once(command, cwd)  # warm-up: the file system cache, .pyc files
    for _ in range(runs):
        before_each()
        cpu, wall = run_once(command, cwd)
        base_cpu, base_wall = run_once(baseline, cwd)
        rows.append((cpu, wall, base_cpu, base_wall))
    return {
        "cpu": statistics.median(r[0] for r in rows),
        "wall": statistics.median(r[1] for r in rows),
        "cpu_ratio": statistics.median(r[0] / max(r[2], 1e-4) for r in rows),
        "wall_ratio": statistics.median(r[1] / max(r[3], 1e-4) for r in rows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--project", default="stable-baselines3",
                        help="corpus project for the cold/warm repository run")
    args = parser.parse_args()
    # As users run it: the console script pip installs next to this interpreter (`python
    # -m torchfix` would also pay for runpy).
    script = Path(sys.executable).with_name("torchfix")
    torchfix = [str(script)] if script.is_file() else [sys.executable, "-m", "torchfix"]
    baseline = [sys.executable, "-c", "pass"]
    with tempfile.TemporaryDirectory(prefix="torchfix-latency-") as temp:
        folder = Path(temp)
        (folder / "plain.py").write_text(NO_CANDIDATES)
        (folder / "train.py").write_text(WITH_CANDIDATES)
        cases = {
            # The floor of every command but --version: the CLI framework's own import.
            "python -c 'import typer'": ([sys.executable, "-c", "import typer"], None),
            "torchfix --version": ([*torchfix, "--version"], 6.0),
            "check, no candidates": ([*torchfix, "check", "--no-cache", "plain.py"], 8.0),
            "check, with candidates": ([*torchfix, "check", "--no-cache", "train.py"], 15.0),
            # The same with the result cache on (the default), every run a miss that then
            # writes its entry. Shown for what it costs; the goals are for the work itself.
            "  ... cache on, no cand.": ([*torchfix, "check", "plain.py"], None),
            "  ... cache on, with cand.": ([*torchfix, "check", "train.py"], None),
        }
        print(f"{'command':<28} {'cpu s':>7} {'wall s':>7} {'cpu x':>7} {'wall x':>7}  goal")
        base = paired(baseline, baseline, folder, args.runs)
        print(f"{'python -c pass':<28} {base['cpu']:7.3f} {base['wall']:7.3f} "
              f"{1.0:7.2f} {1.0:7.2f}")
        def forget() -> None:  # every run of a cache-on row is a miss
            shutil.rmtree(folder / ".torchfix_cache", ignore_errors=True)

        for label, (command, goal) in cases.items():
            figures = paired(command, baseline, folder, args.runs, before_each=forget)
            print(f"{label:<28} {figures['cpu']:7.3f} {figures['wall']:7.3f} "
                  f"{figures['cpu_ratio']:7.2f} {figures['wall_ratio']:7.2f}  "
                  + (f"<= {goal:g}x" if goal is not None else "(no goal)"))

        from corpus import ensure

        repository = folder / "repo"
        shutil.copytree(ensure([args.project])[args.project], repository)
        cache = repository / ".torchfix_cache"
        check = [*torchfix, "check", "--quiet", "."]
        cold = paired(check, baseline, repository, max(3, args.runs // 3),
                      before_each=lambda: shutil.rmtree(cache, ignore_errors=True))
        run_once(check, repository)  # fill the cache
        warm = paired(check, baseline, repository, max(3, args.runs // 3))
        print(f"\n{args.project}: check cold {cold['wall']:.2f} s wall ({cold['cpu']:.2f} cpu s),"
              f" warm {warm['wall']:.2f} s wall ({warm['cpu']:.2f} cpu s): warm is "
              f"{100 * warm['wall'] / cold['wall']:.0f}% of cold (goal <= 10%)")
        print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; torchfix "
              f"run as `{' '.join(torchfix)}`")


if __name__ == "__main__":
    main()
