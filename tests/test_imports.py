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
