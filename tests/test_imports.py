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
               "torchfix.model.facts", "torchfix.engine.decide", "rich", "libcst")
    assert loaded(["check", "--no-cache", "plain.py"], tmp_path, watched) == []


def test_a_file_imports_only_the_codemods_it_triggers(tmp_path: Path) -> None:
    (tmp_path / "resume.py").write_text("def resume(model, sd):\n    model.load_state_dict(sd)\n")
    watched = ("codemods.checkpoints.strict_load_state_dict", "codemods.migrations.amp_api",
               "codemods.assertions.assert_to_raise")
    assert loaded(["check", "--no-cache", "resume.py"], tmp_path, watched) == [
        "codemods.checkpoints.strict_load_state_dict"]
