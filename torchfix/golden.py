"""Golden cases: `golden/<codemod>/<case>.in.py` → `<case>.out.py`, run through the CLI.

A case with no `.out.py` must come out unchanged. An optional `<case>.check.txt` holds the
exact `torchfix check --show-all` output expected for the input, and an optional `<case>.toml` is
placed beside it as `pyproject.toml` (codemod options, e.g. `[tool.torchfix.<name>]`).
The first lines of an input may carry directives for the harness:

    # golden-args: --unsafe-fixes
    # golden-path: tests/test_model.py

`golden-args` are extra CLI arguments; `golden-path` is where the file is placed (codemods
such as assert-to-raise treat test files differently). Every case is also run a second
time on its own output, which must then be left alone: the codemod is idempotent.

A folder `golden/<codemod>/<case>/` is a case of several files: a small project, for
decisions that read other modules (a class defined elsewhere, an imported constant, the
project's torch requirement, a test expecting AssertionError). Its `*.in.py` files are
placed without the `.in` (expected output: `*.out.py` beside them; none: unchanged),
every other file is copied as it is (a plain `.py` file must come out unchanged), and
`check.txt` / `args.txt` hold the expected `check` output and extra arguments. A
`*.out.py` with no `*.in.py` is a file the run must create. The commands run at the
project's root on `.`.

Used by the test suite and by `torchfix selftest`, so the cases ship with the package.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typer import Typer

IN_SUFFIX = ".in.py"
OUT_SUFFIX = ".out.py"
CHECK_SUFFIX = ".check.txt"
CONFIG_SUFFIX = ".toml"
_ARGS_DIRECTIVE = b"# golden-args:"
_PATH_DIRECTIVE = b"# golden-path:"


def golden_root() -> Path:
    """The golden folder: shipped inside the package, or beside it in a source checkout."""
    packaged = Path(__file__).parent / "_golden"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "golden"


# A one-file case is a module of a project that declares a current torch, as most do; what
# a project that declares none gets is told by folder cases. A case's own `.toml` replaces
# this (its `pyproject.toml` says what the project declares).
SINGLE_FILE_REQUIREMENTS = "torch>=2.4\n"


@dataclass(frozen=True)
class GoldenCase:
    """One golden case of a codemod: a file, or a folder for a multi-file project."""

    codemod: str
    name: str
    input_path: Path  # the .in.py file, or the folder of a folder case

    @property
    def id(self) -> str:
        return f"{self.codemod}/{self.name}"

    @property
    def is_folder(self) -> bool:
        return self.input_path.is_dir()

    @property
    def expected_path(self) -> Path | None:
        if self.is_folder:  # the first expected output, if any file is to change
            return next(iter(sorted(self.input_path.rglob(f"*{OUT_SUFFIX}"))), None)
        path = self.input_path.with_name(self.name + OUT_SUFFIX)
        return path if path.is_file() else None

    @property
    def config_path(self) -> Path | None:
        path = self.input_path.with_name(self.name + CONFIG_SUFFIX)
        return path if path.is_file() else None

    @property
    def check_path(self) -> Path | None:
        if self.is_folder:
            path = self.input_path / "check.txt"
        else:
            path = self.input_path.with_name(self.name + CHECK_SUFFIX)
        return path if path.is_file() else None

    def directives(self) -> tuple[list[str], str]:
        if self.is_folder:
            args_file = self.input_path / "args.txt"
            args = shlex.split(args_file.read_text()) if args_file.is_file() else []
            return args, "."
        args: list[str] = []
        filename = f"{self.name}.py"
        for line in self.input_path.read_bytes().splitlines()[:5]:
            if line.startswith(_ARGS_DIRECTIVE):
                args += shlex.split(line[len(_ARGS_DIRECTIVE):].decode())
            elif line.startswith(_PATH_DIRECTIVE):
                filename = line[len(_PATH_DIRECTIVE):].decode().strip()
        return args, filename


def discover_cases(root: Path | None = None) -> list[GoldenCase]:
    root = root or golden_root()
    cases = [
        GoldenCase(path.parent.name, path.name[: -len(IN_SUFFIX)], path)
        for path in root.glob(f"*/*{IN_SUFFIX}")
    ]
    cases += [
        GoldenCase(path.parent.name, path.name, path)
        for path in root.glob("*/*") if path.is_dir() and not path.name.startswith(("_", "."))
    ]
    return sorted(cases, key=lambda case: case.id)


def _folder_files(case: GoldenCase) -> dict[Path, tuple[bytes | None, bytes]]:
    """Project path → (input bytes, expected bytes) of every file of a folder case; the
    input is None for a file the run must create."""
    files: dict[Path, tuple[bytes | None, bytes]] = {}
    for path in sorted(case.input_path.rglob("*")):
        relative = path.relative_to(case.input_path)
        if not path.is_file() or "__pycache__" in relative.parts or (
                len(relative.parts) == 1 and relative.name in ("check.txt", "args.txt")):
            continue
        name = relative.as_posix()
        if name.endswith(OUT_SUFFIX):
            if not path.with_name(path.name[: -len(OUT_SUFFIX)] + IN_SUFFIX).is_file():
                files[Path(name[: -len(OUT_SUFFIX)] + ".py")] = (None, path.read_bytes())
            continue
        data = path.read_bytes()
        if name.endswith(IN_SUFFIX):
            expected = path.with_name(path.name[: -len(IN_SUFFIX)] + OUT_SUFFIX)
            target = Path(name[: -len(IN_SUFFIX)] + ".py")
            files[target] = (data, expected.read_bytes() if expected.is_file() else data)
        else:
            files[Path(name)] = (data, data)
    return files


@dataclass(frozen=True)
class CaseOutcome:
    """Whether a golden case passed, and why not."""

    case: GoldenCase
    passed: bool
    message: str = ""


def run_case(case: GoldenCase, cli: Typer) -> CaseOutcome:
    """Run one case through `torchfix apply` and `torchfix check` of the app `cli`
    (`torchfix.cli.app`), as a user would."""
    args, filename = case.directives()
    if case.is_folder:
        files = _folder_files(case)
    else:
        source = case.input_path.read_bytes()
        expected = case.expected_path.read_bytes() if case.expected_path else source
        files = {Path(filename): (source, expected)}
    with tempfile.TemporaryDirectory(prefix="torchfix-golden-") as folder, _inside(Path(folder)):
        for target, (source, _) in files.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            if source is not None:
                target.write_bytes(source)
        if case.config_path is not None and not case.is_folder:
            Path("pyproject.toml").write_bytes(case.config_path.read_bytes())
        elif not case.is_folder:
            Path("requirements.txt").write_text(SINGLE_FILE_REQUIREMENTS, encoding="utf-8")
        if case.check_path is not None:
            code, output = _cli(cli, ["check", "--select", case.codemod, "--quiet", "--show-all",
                                 *args, filename])
            wanted = case.check_path.read_text(encoding="utf-8")
            if output.strip() != wanted.strip():
                return CaseOutcome(case, False, _mismatch("check output", wanted, output))
        disagreement = _check_against_apply(case.codemod, args, filename)
        if disagreement:
            return CaseOutcome(case, False, disagreement)
        code, output = _cli(cli, ["apply", "--select", case.codemod, "--quiet", *args, filename])
        if code != 0:
            return CaseOutcome(case, False, f"apply exited {code}: {output.strip()}")
        for target, (_, expected) in files.items():
            if not target.is_file():
                return CaseOutcome(case, False, f"{target.as_posix()} was not created")
            produced = target.read_bytes()
            if produced != expected:
                return CaseOutcome(case, False, _mismatch(
                    f"output of {target.as_posix()}", expected.decode(errors="replace"),
                    produced.decode(errors="replace")))
        code, output = _cli(cli, ["apply", "--select", case.codemod, "--quiet", *args, filename])
        if code != 0 or any(t.read_bytes() != expected for t, (_, expected) in files.items()):
            return CaseOutcome(case, False, "not idempotent: a second run changed the output")
        code, output = _cli(cli, ["check", "--select", case.codemod, "--quiet", *args, filename])
        if code != 0:
            return CaseOutcome(case, False, f"check still fails after apply:\n{output}")
    return CaseOutcome(case, True)


def _check_against_apply(codemod: str, args: list[str], filename: str) -> str:
    """Why `check` does not report exactly the changes `apply` makes; "" when it does.

    `check` takes shortcuts `apply` cannot (a partial libcst parse, changes read off
    CPython's tree), so every case holds the two roads through the engine to the same
    changes, end positions included. The pipeline is called directly: `check`'s JSON
    output takes `apply`'s road (it carries the fixes' edits), its text output does not.
    """
    from torchfix.engine.pipeline import RunOptions, run

    unknown = [arg for arg in args if arg != "--unsafe-fixes"]
    if unknown:
        return f"golden-args supports only --unsafe-fixes, not {' '.join(unknown)}"
    reports = {}
    for road, produce_output in (("check", False), ("apply", True)):
        options = RunOptions(select=[codemod], unsafe_fixes=True if args else None, jobs=1,
                             use_cache=False, produce_output=produce_output)
        outcome = run([Path(filename)], options)
        reports[road] = [
            [change.line, change.column, change.end_line, change.end_column, change.codemod,
             change.message, change.safety.value, change.applied]
            for result in outcome.results
            for change in sorted(result.changes, key=lambda c: (c.line, c.column, c.codemod))
        ]
    if reports["check"] == reports["apply"]:
        return ""
    return _mismatch("check findings (expected: what apply --dry-run reports)",
                     json.dumps(reports["apply"], indent=1), json.dumps(reports["check"], indent=1))


def _cli(cli: Typer, args: list[str], stderr: bool = True) -> tuple[int, str]:
    from typer.testing import CliRunner

    result = CliRunner().invoke(cli, [*args, "--jobs", "1"])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout + (result.stderr if stderr else "")


def _mismatch(what: str, expected: str, actual: str) -> str:
    import difflib

    diff = difflib.unified_diff(
        expected.splitlines(keepends=True), actual.splitlines(keepends=True),
        "expected", "actual",
    )
    return f"{what} differs:\n" + "".join(diff)


@contextlib.contextmanager
def _inside(folder: Path) -> Iterator[None]:
    previous = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)
