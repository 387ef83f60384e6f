"""The ecosystem check: every codemod, unsafe fixes included, over real PyTorch projects.

    python bench/ecosystem.py                    # every project in bench/corpus.py
    python bench/ecosystem.py timm trl           # just these
    python bench/ecosystem.py --out results/     # where the diffs and summary go
    python bench/ecosystem.py --select exp-overflow,typing-any timm   # only these codemods

For each project it reports files, files changed, changes and findings reported for a
human (no fix), crashes (internal errors), outputs that fail to parse, files a second run
would change again, findings of `check` that differ from the changes of `apply`, time and
peak RSS, then a table of changes and reports per codemod — crashes, unparsable outputs,
second-run changes and check/apply differences must be zero. The full diff of
every project is saved so a person can read it (`<out>/<project>.diff`), with
`summary.json` beside it.

Each project runs in its own process, so its time and peak RSS are its own.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import libcst

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import PROJECTS, ensure

from torchfix.engine.pipeline import RunOptions, run
from torchfix.engine.process import process_source
from torchfix.engine.results import EngineSettings
from torchfix.engine.runner import on_parser_stack
from torchfix.git.diffs import unified_diff
from torchfix.model.project import Project
from torchfix.rewrite import registry

DEFAULT_OUT = Path(__file__).resolve().parent / "results"


def check_project(name: str, source: Path, out: Path,
                  select: list[str] | None = None) -> dict[str, object]:
    """Run in a child process: rewrite the project in memory and check every output.

    The project is copied out of `.corpus/` first: inside this repository it would take
    torchfix's own git root as its project root, and read this repository's metadata
    and tests as its own.
    """
    with tempfile.TemporaryDirectory(prefix="torchfix-ecosystem-") as temp:
        folder = Path(temp).resolve() / name
        shutil.copytree(source, folder, symlinks=True)
        return _check_copy(name, folder, out, select)


def _check_copy(name: str, folder: Path, out: Path,
                select: list[str] | None) -> dict[str, object]:
    options = RunOptions(select=select or ["ALL"], unsafe_fixes=True, use_cache=False)
    started = time.perf_counter()
    outcome = run([folder], options)
    seconds = time.perf_counter() - started
    again_settings = EngineSettings(codemods=outcome.settings.codemods, unsafe_fixes=True)
    project = Project(outcome.root)

    changes: Counter[str] = Counter()
    reports: Counter[str] = Counter()
    crashes: list[str] = []
    unparsable: list[str] = []
    unstable: list[str] = []
    input_errors = 0
    diff_parts: list[bytes] = []
    for result in outcome.results:
        relative = result.path.relative_to(folder).as_posix()
        if result.error is not None:
            if result.error.internal:
                crashes.append(f"{relative}: {result.error.message}")
            else:
                input_errors += 1
        for change in result.changes:
            if change.applied:
                changes[change.codemod] += 1
            else:
                reports[change.codemod] += 1
        rewrite = result.rewrite()
        if rewrite is None:
            continue
        old, new = rewrite
        diff_parts.append(unified_diff(old, new, f"{name}/{relative}"))
        try:  # checked independently of the engine's own verification
            libcst.parse_module(new)
            compile(new, relative, "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
        except Exception as exc:
            unparsable.append(f"{relative}: {type(exc).__name__}: {exc}")
            continue
        second = process_source(new, result.path, again_settings, project)
        if second.output is not None or (second.error and second.error.internal):
            unstable.append(relative)

    (out / f"{name}.diff").write_bytes(b"".join(diff_parts))
    # The run's own peak (its worker processes included), before the comparison below.
    peak_rss_mb = max(resource.getrusage(who).ru_maxrss
                      for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    checked_seconds = time.perf_counter()
    disagreements = check_against_apply(folder, [result.path for result in outcome.results],
                                        project, outcome.settings.codemods)
    checked_seconds = time.perf_counter() - checked_seconds
    return {
        "project": name,
        "files": len(outcome.results),
        "parsed": sum(result.parsed for result in outcome.results),
        "files_changed": sum(result.changed for result in outcome.results),
        "changes": dict(sorted(changes.items())),
        "reports": dict(sorted(reports.items())),
        "input_errors": input_errors,
        "crashes": crashes,
        "unparsable_outputs": unparsable,
        "second_run_changes": unstable,
        "check_differs": disagreements,
        "seconds": round(seconds, 2),
        "check_against_apply_seconds": round(checked_seconds, 2),
        "peak_rss_mb": round(peak_rss_mb),
    }


def check_against_apply(folder: Path, paths: list[Path], project: Project,
                        names: tuple[str, ...] | None = None) -> list[str]:
    """Where `check` reports other changes than `apply` makes, codemod by codemod.

    `check` stops after deciding; `apply` then makes the changes with libcst, and an
    editor that cannot make one is an error. One codemod at a time, because in `apply` a
    codemod sees the rewrites of the ones before it.
    """
    differences: list[str] = []
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        for codemod in registry.all_codemods():
            if names is not None and codemod.name not in names:
                continue
            if codemod.skips_path(path) or not any(t in data for t in codemod.triggers):
                continue
            applied = EngineSettings(codemods=(codemod.name,), unsafe_fixes=True)
            checked = EngineSettings(codemods=(codemod.name,), unsafe_fixes=True,
                                     produce_output=False)
            by_apply = on_parser_stack(process_source, data, path, applied, project)
            by_check = on_parser_stack(process_source, data, path, checked, project)
            if by_apply.changes != by_check.changes or (
                (by_apply.error is None) != (by_check.error is None)
            ):
                differences.append(f"{path.relative_to(folder).as_posix()}: {codemod.name}")
    return differences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="*", default=list(PROJECTS))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--select", help="comma-separated codemods to run (default: all)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    select = args.select.split(",") if args.select else None
    if args.child:
        name, folder = args.child
        print(json.dumps(check_project(name, Path(folder), args.out, select)))
        return

    rows = []
    for name, folder in ensure(args.projects).items():
        child = subprocess.Popen(
            [sys.executable, __file__, "--out", str(args.out),
             *(["--select", args.select] if args.select else []), "--child", name, str(folder)],
            stdout=subprocess.PIPE,
        )
        output = child.stdout.read() if child.stdout else b""
        _, status, _ = os.wait4(child.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            rows.append({"project": name, "crashes": ["the check itself failed"],
                         "files": 0, "files_changed": 0, "changes": {}, "reports": {},
                         "seconds": 0,
                         "unparsable_outputs": [], "second_run_changes": [],
                         "check_differs": [], "check_against_apply_seconds": 0,
                         "input_errors": 0, "parsed": 0, "peak_rss_mb": 0})
            continue
        row = json.loads(output)
        rows.append(row)
        print(f"{name}: {row['files']} files, {row['files_changed']} changed, "
              f"{sum(row['changes'].values())} changes, "
              f"{sum(row.get('reports', {}).values())} reported, {len(row['crashes'])} crashes",
              file=sys.stderr)
    (args.out / "summary.json").write_text(json.dumps(rows, indent=2))
    _print_table(rows, [c.name for c in registry.select(select)] if select else None)


def _print_table(rows: list[dict], selected: list[str] | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    codemods = selected or [codemod.name for codemod in registry.all_codemods()]
    which = "selected codemods" if selected else "all codemods"
    table = Table(title=f"torchfix ecosystem check ({which}, --unsafe-fixes)")
    for column in ("project", "files", "changed", "changes", "reported", "crashes",
                   "unparsable", "unstable", "check≠apply", "input errors", "s", "RSS MB"):
        table.add_column(column, justify="left" if column == "project" else "right")
    totals: Counter[str] = Counter()
    reported: Counter[str] = Counter()
    touched: Counter[str] = Counter()
    for row in rows:
        row_reports = row.get("reports", {})
        totals.update(row["changes"])
        reported.update(row_reports)
        touched.update({name for name in (*row["changes"], *row_reports)})
        table.add_row(
            row["project"], str(row["files"]), str(row["files_changed"]),
            str(sum(row["changes"].values())), str(sum(row_reports.values())),
            str(len(row["crashes"])), str(len(row["unparsable_outputs"])),
            str(len(row["second_run_changes"])), str(len(row["check_differs"])),
            str(row["input_errors"]), f"{row['seconds']:.1f}", str(row["peak_rss_mb"]),
        )
    table.add_row(
        "total", str(sum(r["files"] for r in rows)), str(sum(r["files_changed"] for r in rows)),
        str(sum(totals.values())), str(sum(reported.values())),
        str(sum(len(r["crashes"]) for r in rows)),
        str(sum(len(r["unparsable_outputs"]) for r in rows)),
        str(sum(len(r["second_run_changes"]) for r in rows)),
        str(sum(len(r["check_differs"]) for r in rows)),
        str(sum(r["input_errors"] for r in rows)),
        f"{sum(r['seconds'] for r in rows):.1f}", str(max(r["peak_rss_mb"] for r in rows)),
        style="bold",
    )
    # One row per codemod (a column each would not fit): applied changes, findings with
    # no automatic fix, and in how many projects it found anything.
    by_codemod = Table(title="per codemod")
    for column in ("codemod", "changes", "reported", "projects"):
        by_codemod.add_column(column, justify="left" if column == "codemod" else "right")
    for name in codemods:
        by_codemod.add_row(name, str(totals[name]), str(reported[name]), str(touched[name]))
    console = Console(width=200)
    console.print(table)
    console.print(by_codemod)
    for row in rows:
        for problem in (*row["crashes"], *row["unparsable_outputs"], *row["second_run_changes"],
                        *(f"check differs from apply: {where}" for where in row["check_differs"])):
            print(f"{row['project']}: {problem}")


if __name__ == "__main__":
    main()
