"""How fast is `torchfix check`? Timed in one run against baselines on the same files.

    python bench/speed.py                       # torchfix vs. parsing every file with libcst
    python bench/speed.py --torchfix-0.7        # ... and vs. TorchFix 0.7.0 (own venv)
    python bench/speed.py --projects timm,trl   # another part of the corpus (bench/corpus.py)

Machines are noisy, so the figures that matter are the ratios between tools measured in
the same run, on the same files, with the same number of processes. Every tool runs as
its own process; wall time, CPU time and peak RSS are read from the kernel (wait4).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import ROOT, ensure, python_files

DEFAULT_PROJECTS = (
    "timm", "kornia", "trl", "stable-baselines3", "tianshou", "cleanrl", "rl-games",
    "accelerate",
)
# Where TorchFix 0.7.0 is installed (its own venv: it installs a `torchfix` command too).
TORCHFIX_07_VENV = Path(os.environ.get("TORCHFIX_07_VENV", ROOT / "torchfix-0.7.0-venv"))


@dataclass
class Timing:
    label: str
    wall: float
    cpu: float
    peak_rss_mb: float
    exit_code: int


def measure(label: str, command: Sequence[str], cwd: Path | None = None) -> Timing:
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{label} failed (exit {code}):\n{stderr[-2000:]}")
    return Timing(label, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, code)


def parse_every_file(folders: Sequence[str], jobs: int) -> None:
    """The baseline: what merely parsing each file with libcst costs."""
    files = [path for folder in folders for path in python_files(Path(folder))]
    with ProcessPoolExecutor(jobs) as pool:
        list(pool.map(_parse, files, chunksize=16))


def _parse(path: Path) -> None:
    import libcst

    # A file libcst cannot parse costs what it cost to find out.
    with contextlib.suppress(Exception):
        libcst.parse_module(path.read_bytes())


def ensure_torchfix_07() -> Path:
    executable = TORCHFIX_07_VENV / "bin" / "torchfix"
    if not executable.exists():
        subprocess.run([sys.executable, "-m", "venv", str(TORCHFIX_07_VENV)], check=True)
        subprocess.run([str(TORCHFIX_07_VENV / "bin" / "pip"), "install", "--quiet",
                        "torchfix==0.7.0"], check=True)
    return executable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--projects", default=",".join(DEFAULT_PROJECTS),
                        help="comma-separated corpus projects (see bench/corpus.py)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--torchfix-0.7", dest="torchfix_07", action="store_true",
                        help="also time TorchFix 0.7.0 (installed into its own venv)")
    parser.add_argument("--parse-only", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.parse_only is not None:
        parse_every_file(args.parse_only, args.jobs)
        return

    folders = [str(path) for path in ensure(args.projects.split(",")).values()]
    files = sum(len(python_files(Path(folder))) for folder in folders)
    # The torchfix of the interpreter running this script (its venv need not be on PATH).
    torchfix = str(Path(sys.executable).with_name("torchfix"))
    if not Path(torchfix).exists():
        torchfix = shutil.which("torchfix") or "torchfix"
    print(f"{files} files in {len(folders)} projects, {args.jobs} processes per tool")

    timings = [
        measure("libcst parse of every file",
                [sys.executable, __file__, "--jobs", str(args.jobs), "--parse-only", *folders]),
        measure("torchfix check, all codemods, cold",
                [torchfix, "check", "--select", "ALL", "--unsafe-fixes", "--no-cache",
                 "--quiet", "--jobs", str(args.jobs), *folders]),
    ]
    cache_folder = Path.cwd() / ".torchfix_cache"
    warm_command = [torchfix, "check", "--select", "ALL", "--unsafe-fixes", "--quiet",
                    "--jobs", str(args.jobs), *folders]
    shutil.rmtree(cache_folder, ignore_errors=True)
    measure("(filling the cache)", warm_command)
    timings.append(measure("torchfix check, all codemods, warm cache", warm_command))
    if args.torchfix_07:
        timings.append(measure("TorchFix 0.7.0 --select=ALL",
                               [str(ensure_torchfix_07()), "--select=ALL", "-j",
                                str(args.jobs), *folders]))

    baseline = timings[0].wall
    cold = timings[1].wall
    print(f"\n{'':42} {'wall s':>8} {'cpu s':>8} {'peak RSS':>9} {'÷ parse':>8} "
          f"{'÷ torchfix':>10}")
    for timing in timings:
        print(f"{timing.label:42} {timing.wall:8.2f} {timing.cpu:8.2f} "
              f"{timing.peak_rss_mb:7.0f}MB {timing.wall / baseline:8.2f} "
              f"{timing.wall / cold:10.2f}")
    if args.torchfix_07:
        print(f"\ntorchfix check is {timings[-1].wall / cold:.1f}x faster than TorchFix 0.7.0 "
              "on the same files (cold)")
    print(f"torchfix check costs {cold / baseline:.2f}x a bare libcst parse of every file; "
          f"a warm re-run costs {timings[2].wall / cold:.1%} of the cold run")


if __name__ == "__main__":
    main()
