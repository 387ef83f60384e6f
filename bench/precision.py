"""A precision round: torchfix's output on PyPI projects it was never tuned on, for reviewers.

    python bench/precision.py draw 54 --count 130   # pick projects at random (seeded by the round)
    python bench/precision.py fetch 54              # download and unpack each one's newest release
    python bench/precision.py run 54                # torchfix (this checkout) over each project
    python bench/precision.py items 54              # what the reviewers read, and their brief
    python bench/precision.py tally 54              # the reviewers' verdicts, per kind and codemod

Everything lands in `~/.cache/torchfix-precision/round-<N>/` (`TORCHFIX_PRECISION_ROOT`
moves it), outside this repository: a project unpacked inside a git checkout belongs to
that checkout's project, whose root, tests and torch floor torchfix would then read
(round 55's first run read this repository's golden cases as the projects' tests).

A round draws from PyPI's projects whose name holds "torch" (the simple index, read once
into `torchnames.txt` there), leaving out `bench/corpus.py`'s projects, every project named
in the README's table of earlier rounds or drawn by an earlier round, and builds of torch
itself; a project whose code never imports torch is set aside. Per project, `run` writes
the three outputs the README's table is made from:

    torchfix apply --dry-run --no-cache .                   > safe.diff
    torchfix apply --dry-run --no-cache --unsafe-fixes .    > unsafe.diff
    torchfix check --no-cache --show-all --unsafe-fixes --output-format json . > check.json

`items` lists every safe fix and a seeded sample of up to 40 unsafe fixes per project, with
their edits, in `items/<project>.txt`, and writes `BRIEF.md` from `bench/precision_brief.md`.
Reviewers (people, or sessions that have not seen the rules) append
`<ID><TAB><verdict><TAB><reason>` lines to `verdicts/<reviewer>.txt`: `acceptable`,
`noise` or `wrong` for a safe item, `correct` or `wrong` for an unsafe one.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import urllib.parse
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ROOT = Path(os.environ.get("TORCHFIX_PRECISION_ROOT",
                           Path.home() / ".cache" / "torchfix-precision"))
INDEX = "https://pypi.org/simple/"
# torch's own builds and binary repackagings: no project code to review.
NOT_A_PROJECT = re.compile(
    r"nightly|cuda|win-x64|macos|gfx|-bin$|linux|aarch|stubs|^torch$|cu1[0-9]|cpu$|rocm|runtime"
)
LARGEST_ARCHIVE = 60_000_000
UNSAFE_SAMPLE = 40
RUN_TIMEOUT_S = 1200


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip().lower())


def round_folder(number: int) -> Path:
    return ROOT / f"round-{number}"


def torch_names() -> list[str]:
    cached = ROOT / "torchnames.txt"
    if not cached.exists():
        ROOT.mkdir(parents=True, exist_ok=True)
        with urllib.request.urlopen(INDEX, timeout=300) as response:
            page = response.read().decode()
        names = {normalized(n) for n in re.findall(r'href="[^"]*?([^/"]+)/"', page)}
        cached.write_text("\n".join(sorted(n for n in names if "torch" in n)) + "\n")
    return cached.read_text().split()


def already_read() -> set[str]:
    """Projects of bench/corpus.py and of every round in the README's table."""
    sys.path.insert(0, str(REPO / "bench"))
    from corpus import PROJECTS

    seen = {normalized(name) for name in PROJECTS}
    for line in (REPO / "README.md").read_text().splitlines():
        row = re.match(r"\| (\d+) \| ([^|]+,[^|]+) \|", line)
        if row:
            seen.update(normalized(name) for name in row.group(2).split(","))
    for folder in ROOT.glob("round-*"):
        if (folder / "pick.txt").exists():
            seen.update(normalized(n) for n in (folder / "pick.txt").read_text().split())
    return seen


def draw(number: int, count: int) -> None:
    folder = round_folder(number)
    if (folder / "pick.txt").exists():
        raise SystemExit(f"{folder / 'pick.txt'}: round {number} has drawn already")
    seen = already_read()
    candidates = [n for n in torch_names() if n not in seen and not NOT_A_PROJECT.search(n)]
    picked = random.Random(f"round-{number}").sample(candidates, min(count, len(candidates)))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pick.txt").write_text("\n".join(picked) + "\n")
    print(f"{len(picked)} of {len(candidates)} candidates -> {folder / 'pick.txt'}")


def _release_file(info: dict) -> dict | None:
    """The sdist, else a pure-Python wheel, else any wheel, of the newest release."""
    files = info.get("urls") or []
    sdists = [f for f in files if f["packagetype"] == "sdist"]
    wheels = sorted(
        (f for f in files if f["packagetype"] == "bdist_wheel"),
        key=lambda f: ("none-any" not in f["filename"], "x86_64" not in f["filename"]),
    )
    return next((f for f in sdists + wheels if f["size"] < LARGEST_ARCHIVE), None)


def _fetch_one(folder: Path, name: str) -> str:
    destination = folder / "src" / name
    if destination.exists():
        return "have"
    url = f"https://pypi.org/pypi/{name}/json"
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            info = json.load(response)
        chosen = _release_file(info)
        if chosen is None:
            return "no release file under the size limit"
        archive = folder / "archives" / chosen["filename"]
        if not archive.exists():
            with (
                urllib.request.urlopen(urllib.parse.urljoin(url, chosen["url"]), timeout=300)
                as response,
                open(archive, "wb") as out,
            ):
                shutil.copyfileobj(response, out)
        unpacking = destination.with_name(name + ".partial")
        shutil.rmtree(unpacking, ignore_errors=True)
        unpacking.mkdir(parents=True)
        if archive.name.endswith((".whl", ".zip")):
            zipfile.ZipFile(archive).extractall(unpacking)
        else:
            with tarfile.open(archive) as tar:
                tar.extractall(unpacking, filter="data")
        children = list(unpacking.iterdir())
        if len(children) == 1 and children[0].is_dir() and not archive.name.endswith(".whl"):
            children[0].rename(destination)
            unpacking.rmdir()
        else:
            unpacking.rename(destination)
    except Exception as error:  # one project's failure must not stop the round
        return f"failed: {type(error).__name__}: {error}"
    if not _imports_torch(destination):
        shutil.move(destination, folder / "set-aside" / name)
        return "set aside: no module imports torch"
    return f"ok {info['info']['version']} {archive.name}"


def _imports_torch(source: Path) -> bool:
    pattern = re.compile(r"^\s*(import torch|from torch)", re.M)
    for path in source.rglob("*.py"):
        try:
            if pattern.search(path.read_text(errors="replace")):
                return True
        except OSError:
            continue
    return False


def fetch(number: int) -> None:
    folder = round_folder(number)
    for sub in ("src", "archives", "set-aside"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    names = (folder / "pick.txt").read_text().split()
    with ThreadPoolExecutor(8) as pool:
        outcomes = pool.map(lambda name: _fetch_one(folder, name), names)
        for name, outcome in zip(names, outcomes, strict=True):
            print(f"{name}: {outcome}", flush=True)


def run_projects(number: int, projects: list[str]) -> None:
    folder = round_folder(number)
    names = projects or sorted(p.name for p in (folder / "src").iterdir())
    torchfix = [sys.executable, "-m", "torchfix"]
    commands = {
        "safe.diff": [*torchfix, "apply", "--dry-run", "--no-cache", "."],
        "unsafe.diff": [*torchfix, "apply", "--dry-run", "--no-cache", "--unsafe-fixes", "."],
        "check.json": [*torchfix, "check", "--no-cache", "--show-all", "--unsafe-fixes",
                       "--output-format", "json", "."],
    }
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    for name in names:
        out = folder / "out" / name
        out.mkdir(parents=True, exist_ok=True)
        for output, command in commands.items():
            with open(out / output, "w") as stdout, open(out / f"{output}.err", "w") as stderr:
                try:
                    code = subprocess.run(command, cwd=folder / "src" / name, stdout=stdout,
                                          stderr=stderr, env=environment,
                                          timeout=RUN_TIMEOUT_S).returncode
                except subprocess.TimeoutExpired:
                    code = "timeout"
            if code not in (0, 1):
                print(f"{name}: {output}: exit {code}, see {out / output}.err", flush=True)
        for cache in (folder / "src" / name).rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
        print(f"{name}: done", flush=True)


def items(number: int) -> None:
    folder = round_folder(number)
    (folder / "items").mkdir(exist_ok=True)
    (folder / "verdicts").mkdir(exist_ok=True)
    totals = collections.Counter()
    for out in sorted((folder / "out").iterdir()):
        findings = json.loads((out / "check.json").read_text())["findings"]
        applied = [f for f in findings if f.get("fix") and f["fix"].get("applies")]
        safe = [f for f in applied if f["fix"]["applicability"] == "safe"]
        unsafe = [f for f in applied if f["fix"]["applicability"] != "safe"]
        if len(unsafe) > UNSAFE_SAMPLE:
            sample = random.Random(f"round{number}-{out.name}").sample(unsafe, UNSAFE_SAMPLE)
            unsafe = sorted(sample, key=lambda f: (f["path"], f["line"]))
        lines = []
        for kind, group in (("safe", safe), ("unsafe", unsafe)):
            for index, finding in enumerate(group, 1):
                lines.append(
                    f"### {out.name}:{kind[0].upper()}{index} | {kind} | {finding['codemod']} | "
                    f"{finding['path']}:{finding['line']}:{finding['column']}"
                )
                lines.append(f"message: {finding['message']}")
                for edit in finding["fix"]["edits"]:
                    start, end = edit["location"], edit["end_location"]
                    lines.append(f"edit {start['line']}:{start['column']}-{end['line']}:"
                                 f"{end['column']} -> {json.dumps(edit['content'])}")
                lines.append("")
        if lines:
            (folder / "items" / f"{out.name}.txt").write_text("\n".join(lines))
            print(f"{out.name}\t{len(safe)}\t{len(unsafe)}")
            totals.update(safe=len(safe), unsafe=len(unsafe), projects=1)
    brief = (REPO / "bench" / "precision_brief.md").read_text()
    brief = brief.replace("{ROUND}", str(folder)).replace("{PYTHON}", sys.executable)
    (folder / "BRIEF.md").write_text(brief)
    print(f"{totals['projects']} projects: {totals['safe']} safe, {totals['unsafe']} unsafe items")


def tally(number: int) -> None:
    folder = round_folder(number)
    heading = re.compile(r"^### (\S+) \| (\w+) \| (\S+) \| (\S+)", re.M)
    kinds: dict[str, tuple[str, str, str]] = {}
    for path in (folder / "items").glob("*.txt"):
        for match in heading.finditer(path.read_text()):
            kinds[match.group(1)] = (match.group(2), match.group(3), match.group(4))
    verdicts: dict[str, tuple[str, str, str]] = {}
    for path in sorted((folder / "verdicts").glob("*.txt")):
        for line in path.read_text().splitlines():
            parts = line.split("\t")
            if len(parts) >= 2 and parts[0] in kinds:
                verdicts[parts[0]] = (parts[1].strip().lower(), " ".join(parts[2:]), path.stem)
    missing = sorted(set(kinds) - set(verdicts))
    print(f"{len(kinds)} items, {len(verdicts)} verdicts, {len(missing)} without one")
    for item in missing:
        print(f"  no verdict: {item}")
    counts = collections.Counter((kinds[i][0], v) for i, (v, _, _) in verdicts.items())
    safe = sum(counts[("safe", v)] for v in ("acceptable", "noise", "wrong"))
    unsafe = sum(counts[("unsafe", v)] for v in ("correct", "wrong"))
    print(f"safe {safe}: acceptable {counts[('safe', 'acceptable')]} "
          f"({100 * counts[('safe', 'acceptable')] / max(safe, 1):.1f}%), "
          f"noise {counts[('safe', 'noise')]}, wrong {counts[('safe', 'wrong')]}")
    print(f"unsafe {unsafe}: correct {counts[('unsafe', 'correct')]} "
          f"({100 * counts[('unsafe', 'correct')] / max(unsafe, 1):.1f}%), "
          f"wrong {counts[('unsafe', 'wrong')]}")
    per_codemod = collections.Counter(
        (kinds[i][0], kinds[i][1], v) for i, (v, _, _) in verdicts.items()
    )
    for (kind, codemod, verdict), n in sorted(per_codemod.items()):
        print(f"  {kind:6} {codemod:28} {verdict:10} {n}")
    for item, (verdict, reason, reviewer) in sorted(verdicts.items()):
        if verdict not in ("acceptable", "correct"):
            print(f"{item}\t{kinds[item][1]}\t{kinds[item][2]}\t{verdict}\t{reviewer}\t{reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=["draw", "fetch", "run", "items", "tally"])
    parser.add_argument("round", type=int)
    parser.add_argument("projects", nargs="*", help="run: only these projects")
    parser.add_argument("--count", type=int, default=130, help="draw: how many projects")
    arguments = parser.parse_args()
    if arguments.step == "draw":
        draw(arguments.round, arguments.count)
    elif arguments.step == "fetch":
        fetch(arguments.round)
    elif arguments.step == "run":
        run_projects(arguments.round, arguments.projects)
    elif arguments.step == "items":
        items(arguments.round)
    else:
        tally(arguments.round)


if __name__ == "__main__":
    main()
