"""TorchFix 0.7.0 and torchfix side by side: every TorchFix finding, and whether we report it.

    python bench/torchfix07_parity.py                  # every project in bench/corpus.py
    python bench/torchfix07_parity.py timm fairseq     # just these
    python bench/torchfix07_parity.py --out results/   # where parity.json / parity.md go
    python bench/torchfix07_parity.py --folder golden  # any folder instead of the corpus

TorchFix runs in its own venv (bench/speed.py installs it; TORCHFIX_07_VENV says where),
file by file through its flake8 entry point (`TorchChecker`, every rule, TOR3/4/9 too), so
a file it gives up on (an exception in a visitor loses the whole file) is recorded as
such. torchfix runs in this process with every rule that carries a TorchFix code
(`--select TOR`). A TorchFix finding is matched by one of ours at the same file, line
and code. The report lists the counts per code, the files TorchFix gave up on, every
TorchFix finding we do not report (for a person to give the reason in the README), and
how many findings we report that TorchFix does not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import PROJECTS, ensure, python_files
from speed import ensure_torchfix_07

from torchfix.engine.pipeline import RunOptions, run

DEFAULT_OUT = Path(__file__).resolve().parent / "results"

# Runs in TorchFix's venv: one JSON line per file with its violations or its error.
_DRIVER = r'''
import json, sys
from concurrent.futures import ProcessPoolExecutor
from torchfix.torchfix import TorchChecker

def check(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.readlines()
        checker = TorchChecker(None, lines)
        found = [[line, column, message.split(" ", 1)[0], message.split(" ", 1)[1]]
                 for line, column, message, _ in checker.run()]
        return {"path": path, "violations": found, "error": None}
    except Exception as exc:  # TorchFix loses the whole file
        return {"path": path, "violations": [],
                "error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"}

if __name__ == "__main__":
    paths = [line.rstrip("\n") for line in sys.stdin if line.strip()]
    with ProcessPoolExecutor(int(sys.argv[1])) as pool:
        for result in pool.map(check, paths, chunksize=8):
            print(json.dumps(result), flush=True)
'''


def torchfix07(files: list[Path], jobs: int) -> list[dict]:
    python = ensure_torchfix_07().parent / "python"
    # Run outside this checkout: its `torchfix` package would shadow TorchFix's.
    done = subprocess.run([str(python), "-c", _DRIVER, str(jobs)], cwd=tempfile.gettempdir(),
                          input="\n".join(str(path) for path in files), capture_output=True,
                          text=True, check=True)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def ours(folder: Path, jobs: int) -> list[tuple[str, int, str, str, str]]:
    """(path, line, code, codemod, message) of every finding of the TorchFix-coded rules.

    The project is copied out of `.corpus/` first, as bench/ecosystem.py does: inside this
    repository it would take torchfix's own root, and read its torch floor, as its own.
    Paths are reported as those of the original files.
    """
    folder = folder.resolve()
    with tempfile.TemporaryDirectory(prefix="torchfix-parity-") as temp:
        copy = Path(temp).resolve() / folder.name
        shutil.copytree(folder, copy, symlinks=True)
        outcome = run([copy], RunOptions(select=["TOR"], unsafe_fixes=True, jobs=jobs,
                                         use_cache=False, produce_output=False))
        found = []
        for result in outcome.results:
            original = folder / result.path.resolve().relative_to(copy)
            for change in result.changes:
                found.append((str(original), change.line, change.code or "",
                              change.codemod, change.message))
    return found


def compare(projects: dict[str, Path], jobs: int) -> dict:
    rows: dict = {"projects": {}, "theirs_only": [], "gave_up": [], "ours_only": Counter(),
                  "per_code": {}}
    per_code: dict[str, Counter[str]] = {}
    for name, folder in projects.items():
        files = [path.resolve() for path in python_files(folder)]
        theirs = torchfix07(files, jobs)
        mine = ours(folder, jobs)
        mine_keys = {(path, line, code) for path, line, code, _, _ in mine}
        their_keys = set()
        for result in theirs:
            path = result["path"]
            if result["error"]:
                rows["gave_up"].append({"project": name, "path": _short(path, folder),
                                        "error": result["error"]})
            for line, _column, code, message in result["violations"]:
                their_keys.add((path, line, code))
                counts = per_code.setdefault(code, Counter())
                counts["torchfix_0.7"] += 1
                if (path, line, code) in mine_keys:
                    counts["matched"] += 1
                else:
                    rows["theirs_only"].append({"project": name, "path": _short(path, folder),
                                                "line": line, "code": code,
                                                "message": message})
        for path, line, code, codemod, _message in mine:
            counts = per_code.setdefault(code or codemod, Counter())
            counts["torchfix"] += 1
            if (path, line, code) not in their_keys:
                counts["only_torchfix"] += 1
                rows["ours_only"][codemod] += 1
        rows["projects"][name] = {
            "files": len(files),
            "torchfix_0.7_findings": sum(len(r["violations"]) for r in theirs),
            "torchfix_0.7_gave_up": sum(1 for r in theirs if r["error"]),
            "torchfix_findings": len(mine),
        }
        print(f"{name}: TorchFix 0.7 {rows['projects'][name]['torchfix_0.7_findings']} findings "
              f"({rows['projects'][name]['torchfix_0.7_gave_up']} files given up), torchfix "
              f"{len(mine)}", file=sys.stderr)
    rows["per_code"] = {code: dict(counts) for code, counts in sorted(per_code.items())}
    rows["ours_only"] = dict(rows["ours_only"])
    return rows


def _short(path: str, folder: Path) -> str:
    try:
        return Path(path).relative_to(folder.resolve()).as_posix()
    except ValueError:
        return path


def markdown(rows: dict) -> str:
    lines = ["| code | TorchFix 0.7 | matched by torchfix | torchfix | torchfix only |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for code, counts in rows["per_code"].items():
        lines.append(f"| {code} | {counts.get('torchfix_0.7', 0)} | {counts.get('matched', 0)} "
                     f"| {counts.get('torchfix', 0)} | {counts.get('only_torchfix', 0)} |")
    lines.append("")
    lines.append(f"TorchFix 0.7 gave up on {len(rows['gave_up'])} files:")
    lines += [f"- {row['project']}/{row['path']}: {row['error']}" for row in rows["gave_up"]]
    lines.append("")
    lines.append(f"TorchFix 0.7 findings torchfix does not report ({len(rows['theirs_only'])}):")
    lines += [f"- {row['project']}/{row['path']}:{row['line']} {row['code']} {row['message']}"
              for row in rows["theirs_only"]]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="*", default=list(PROJECTS))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--folder", type=Path, action="append", default=[],
                        help="compare on this folder instead of corpus projects (repeatable)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    folders = {path.name: path for path in args.folder} if args.folder else ensure(args.projects)
    rows = compare(folders, args.jobs)
    (args.out / "parity.json").write_text(json.dumps(rows, indent=2))
    text = markdown(rows)
    (args.out / "parity.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
