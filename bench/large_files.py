"""Is the work per file linear in its size? Times one generated file at growing sizes.

    python bench/large_files.py                          # 0.3, 0.6, 1.2, 2.4 MB
    python bench/large_files.py --shape chained --sizes 0.15,0.3,0.6
    python bench/large_files.py --baseline /tmp/old      # also time an older checkout
    python bench/large_files.py --cpu-limit 300          # stop a run after 300 CPU s

Shapes (ordinary code, the same few lines over and over, as in generated code):
  plain    `model.load_state_dict(sd)` lines with a list literal every third line
  chained  the same plus one `torch.cuda.amp` use at the top and a `torch.save` at the
           end, so several codemods change the file one after the other (apply maps the
           later ones' positions back through the earlier ones' edits)

Each run is `torchfix <command> --no-cache -q FILE` in its own process, with
`max-file-size` raised above the file (in a pyproject.toml beside it). The table gives
wall and CPU seconds (user + system, from the kernel: steadier than wall time on a busy
machine), CPU seconds per MB and peak RSS. Linear work shows as a flat CPU s/MB column.
With `--baseline DIR` (a source tree of another torchfix version, e.g. from
`git archive`), each measurement is preceded by the same one with DIR first on
PYTHONPATH, so both see the same machine load.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

COMMANDS = {"check": ["check"], "apply --dry-run": ["apply", "--dry-run"]}


@dataclass
class Timing:
    wall: float
    cpu: float
    peak_mb: float
    killed: bool  # stopped at the CPU limit


def generate(size_mb: float, shape: str) -> str:
    lines = ["import torch\n", "\n"]
    if shape == "chained":
        lines.append("scaler = torch.cuda.amp.GradScaler()\n\n")
    size, index = sum(map(len, lines)), 0
    while size < size_mb * 1_000_000:
        line = ("values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" if index % 3 == 2
                else "model.load_state_dict(sd)\n")
        lines.append(line)
        size += len(line)
        index += 1
    if shape == "chained":
        lines.append("torch.save(model, path)\n")
    return "".join(lines)


def measure(command: list[str], path: Path, cpu_limit: int,
            baseline: Path | None = None) -> Timing:
    """One torchfix process on `path`; with `baseline`, that source tree's torchfix."""
    config = path.parent / "pyproject.toml"
    if baseline is None:
        config.write_text("[tool.torchfix]\nmax-file-size = 1000\n")
    else:
        config.unlink(missing_ok=True)  # older versions have no such setting
    env = dict(os.environ)
    if baseline is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(baseline),
                                                          env.get("PYTHONPATH")]))
    def limit_cpu() -> None:
        # CPU seconds, not wall time: on a busy machine wall time says little.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "torchfix", *command, "--no-cache", "-q", path.name],
        cwd=path.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
        preexec_fn=limit_cpu,
    )
    _, status, usage = os.wait4(process.pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU,
                                                                  signal.SIGKILL)
    return Timing(time.perf_counter() - started, usage.ru_utime + usage.ru_stime,
                  usage.ru_maxrss / 1024, killed)


def row(label: str, name: str, size: float, lines: int, timing: Timing) -> str:
    if timing.killed:
        return (f"{label:<9} {name:<16} {size:5.2f} {lines:7d} {timing.wall:8.1f} "
                f"{'>' + format(timing.cpu, '.0f'):>7} {'-':>8} {timing.peak_mb:8.0f}  "
                "(stopped at the CPU limit)")
    return (f"{label:<9} {name:<16} {size:5.2f} {lines:7d} {timing.wall:8.1f} "
            f"{timing.cpu:7.1f} {timing.cpu / size:8.1f} {timing.peak_mb:8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="0.3,0.6,1.2,2.4", help="MB, comma-separated")
    parser.add_argument("--shape", choices=("plain", "chained"), default="plain")
    parser.add_argument("--commands", default=",".join(COMMANDS),
                        help=f"comma-separated, of: {', '.join(COMMANDS)}")
    parser.add_argument("--cpu-limit", type=int, default=900, metavar="SECONDS",
                        help="CPU seconds after which a run is stopped")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="also time the torchfix source tree in DIR")
    args = parser.parse_args()
    sizes = [float(size) for size in args.sizes.split(",")]
    print(f"shape {args.shape}; torchfix <command> --no-cache -q FILE")
    print(f"{'version':<9} {'command':<16} {'MB':>5} {'lines':>7} {'wall s':>8} {'cpu s':>7} "
          f"{'cpu s/MB':>8} {'peak MB':>8}")
    with tempfile.TemporaryDirectory(prefix="torchfix-large-") as folder:
        for name in args.commands.split(","):
            for size in sizes:
                path = Path(folder) / "big.py"
                text = generate(size, args.shape)
                path.write_text(text)
                lines = text.count("\n")
                if args.baseline is not None:
                    timing = measure(COMMANDS[name], path, args.cpu_limit, args.baseline)
                    print(row("baseline", name, size, lines, timing), flush=True)
                timing = measure(COMMANDS[name], path, args.cpu_limit)
                print(row("this", name, size, lines, timing), flush=True)


if __name__ == "__main__":
    main()
