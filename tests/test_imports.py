"""What each command imports: `check` decides on CPython's tree and never loads libcst."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from conftest import NEEDS_FIX

PROBE = """
import sys
from torchfix.cli import main
sys.argv = ["torchfix", *{args!r}]
try:
    main()
except SystemExit:
    pass
print("LOADED:", sorted(m for m in {watched!r} if m in sys.modules))
"""


def loaded(args: list[str], cwd: Path, watched: tuple[str, ...]) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE.format(args=args, watched=watched)],
                          cwd=cwd, capture_output=True, text=True, timeout=120)
    line = next(line for line in done.stdout.splitlines() if line.startswith("LOADED:"))
    return ast.literal_eval(line.removeprefix("LOADED:").strip())


def test_check_never_imports_libcst(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(NEEDS_FIX + "\nassert x > 0\n")
    watched = ("libcst",)
    assert loaded(["check", "--no-cache", "train.py"], tmp_path, watched) == []
    assert loaded(["check", "--select", "ALL", "--no-cache", "."], tmp_path, watched) == []
    # Making the changes is what needs it.
    assert loaded(["apply", "--no-cache", "--no-record", "train.py"], tmp_path,
                  watched) == ["libcst"]


def test_a_file_without_triggers_loads_no_codemod_and_no_model(tmp_path: Path) -> None:
    # What a pre-commit run on an unrelated file pays for: the manifest says no codemod
    # can act, so none is imported, nor the models, the parsers' machinery or rich.
    (tmp_path / "plain.py").write_text("import math\n\n\ndef f(x):\n    return math.cos(x)\n")
    watched = ("codemods.checkpoints.strict_load_state_dict", "codemods.migrations.amp_api",
               "torchfix.codemods.migrations.amp_api", "torchfix.model.semantic",
               "torchfix.model.facts", "torchfix.engine.decide", "rich", "libcst",
               # Nor what other commands need: batch's module, the cache's and the
               # configuration's readers (there is no pyproject.toml), the pool, git.
               "torchfix.cli.batch", "torchfix.engine.cache", "json", "hashlib", "tempfile",
               "tomllib", "configparser", "pathspec", "concurrent.futures", "git",
               # Nor the data of changes, with no change to report.
               "torchfix.rewrite.changes",
               # Nor the text formats' renderers, with no finding to list.
               "torchfix.output.text")
    assert loaded(["check", "--no-cache", "plain.py"], tmp_path, watched) == []


THREADS = """
import sys, threading
from torchfix.cli import main
sys.argv = ["torchfix", *{args!r}]
try:
    main()
except SystemExit:
    pass
print("THREADS:", sorted(thread.name for thread in threading.enumerate()))
"""


def threads_after(args: list[str], cwd: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", THREADS.format(args=args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)
    line = next(line for line in done.stdout.splitlines() if line.startswith("THREADS:"))
    return ast.literal_eval(line.removeprefix("THREADS:").strip())


def test_only_a_file_with_triggers_starts_the_parser_thread(tmp_path: Path) -> None:
    # The large-stack thread is for parsing: a file no codemod's triggers are in is done
    # without starting it (a pre-commit run on an unrelated file).
    (tmp_path / "plain.py").write_text("import math\n\n\ndef f(x):\n    return math.cos(x)\n")
    (tmp_path / "train.py").write_text(NEEDS_FIX)
    assert "torchfix-parse" not in threads_after(["check", "--no-cache", "plain.py"], tmp_path)
    assert "torchfix-parse" in threads_after(["check", "--no-cache", "train.py"], tmp_path)


def test_a_file_imports_only_the_codemods_it_triggers(tmp_path: Path) -> None:
    (tmp_path / "resume.py").write_text("def resume(model, sd):\n    model.load_state_dict(sd)\n")
    watched = ("codemods.checkpoints.strict_load_state_dict", "codemods.migrations.amp_api",
               "codemods.assertions.assert_to_raise")
    assert loaded(["check", "--no-cache", "resume.py"], tmp_path, watched) == [
        "codemods.checkpoints.strict_load_state_dict"]


def test_a_warm_run_of_an_unchanged_project_imports_no_codemod(tmp_path: Path) -> None:
    # The cached results read project-wide facts (the torch floor, the formatter settings,
    # atomic-save's count of saving modules): while no file of the project changed, their
    # digests are read back, not worked out by importing the codemods and models again.
    import os
    import time

    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "train.py").write_text(
        "import torch\n\n\ndef keep(model, path):\n    torch.save(model.state_dict(), path)\n")
    (tmp_path / "requirements.txt").write_text("torch==2.0.0\n")
    when = time.time_ns() - 3600 * 1_000_000_000  # edited an hour ago
    for path in tmp_path.rglob("*"):
        os.utime(path, ns=(when, when))
    watched = ("codemods.checkpoints.atomic_save", "codemods.checkpoints.load_weights_only",
               "torchfix.model.semantic", "torchfix.model.torch_floor",
               "torchfix.model.formatter", "torchfix.model.expected_errors", "libcst")
    cold = loaded(["check", "."], tmp_path, watched)
    assert "codemods.checkpoints.atomic_save" in cold
    # The first re-run confirms the facts (importing what works them out) and remembers
    # them; from then on nothing is imported for them.
    assert "codemods.checkpoints.atomic_save" in loaded(["check", "."], tmp_path, watched)
    assert loaded(["check", "."], tmp_path, watched) == []


def _data_classes(tmp_path: Path, args: list[str], generated_docs_only: bool) -> list[str]:
    """The data classes of torchfix a command run in a subprocess defines (with
    `generated_docs_only`, those whose docstring `dataclass` wrote from the signature)."""
    probe = PROBE.format(args=args, watched=()) + f"""
import dataclasses
print("DATACLASSES:", sorted(
    f"{{cls.__module__}}.{{cls.__qualname__}}"
    for module in list(sys.modules.values())
    if getattr(module, "__name__", "").startswith(("torchfix", "codemods"))
    for cls in vars(module).values()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls)
    and cls.__module__ == module.__name__
    and (not {generated_docs_only!r} or (cls.__doc__ or "").startswith(cls.__name__ + "("))
))
"""
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    line = next(line for line in done.stdout.splitlines() if line.startswith("DATACLASSES:"))
    return ast.literal_eval(line.removeprefix("DATACLASSES:").strip())


def test_the_data_classes_of_a_check_carry_their_own_docstrings(tmp_path: Path) -> None:
    # `dataclass` writes a docstring for a class without one from its signature, which
    # costs a third of making the class: on the start-up of every command.
    (tmp_path / "train.py").write_text(NEEDS_FIX)
    assert _data_classes(tmp_path, ["check", "--no-cache", "train.py"], True) == []


def test_a_file_without_triggers_makes_only_the_run_s_data_classes(tmp_path: Path) -> None:
    # Python writes and execs each method of a data class when the class is defined: on
    # the start-up of every command. The plain records (a finding, a problem, a file's
    # error, a statistic...) are named tuples; the data classes a one-file check defines
    # are the run's own. A new one here is a cost to weigh.
    (tmp_path / "plain.py").write_text("import math\n\n\ndef f(x):\n    return math.cos(x)\n")
    assert set(_data_classes(tmp_path, ["check", "--no-cache", "plain.py"], False)) <= {
        "torchfix.engine.config.Config", "torchfix.engine.discovery.Discovery",
        "torchfix.engine.pipeline.RunOptions", "torchfix.engine.pipeline.RunOutcome",
        "torchfix.engine.results.EngineSettings", "torchfix.engine.results.FileResult",
        "torchfix.model.project.Project", "torchfix.output.data.Report",
        "torchfix.output.report.Summary"}
