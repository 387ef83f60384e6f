"""Writes `codemods/manifest.py`: what the engine knows of each codemod without importing it.

    python -m torchfix.rewrite.manifest          # rewrite the manifest
    python -m torchfix.rewrite.manifest --check  # exit 1 if it is stale

The manifest is made from the codemod classes (`codemods.RUN_ORDER`), so the classes stay
the one place a codemod's name, codes and triggers are written; `tests/test_manifest.py`
fails when the file no longer says what the classes say.
"""

from __future__ import annotations

import importlib
import pprint
import sys
import textwrap
from pathlib import Path

from torchfix.rewrite.registry import codemods_package

HEADER = '''\
"""What the engine knows of each codemod without importing it, in run order.

Written by `python -m torchfix.rewrite.manifest` from the codemod classes: do not edit.
Each row: name, "module:Class" (relative to this package), TorchFix codes, byte triggers,
on by default.
"""

MANIFEST: tuple[tuple[str, str, tuple[str, ...], tuple[bytes, ...], bool], ...] = (
'''


def render() -> str:
    """The manifest's text for the codemods as their classes are now."""
    package = codemods_package()
    rows = []
    for target in package.RUN_ORDER:
        module, _, attribute = target.partition(":")
        codemod = getattr(importlib.import_module(module, package.__name__), attribute)
        codes = tuple(getattr(codemod, "codes", ()))
        row = (codemod.name, target, codes, tuple(codemod.triggers),
               bool(codemod.enabled_by_default))
        rows.append(textwrap.indent(pprint.pformat(row, width=92), "    ") + ",\n")
    return HEADER + "".join(rows) + ")\n"


def manifest_path() -> Path:
    return Path(codemods_package().__file__).parent / "manifest.py"


def main(argv: list[str]) -> int:
    path = manifest_path()
    text = render()
    current = path.read_text(encoding="utf-8") if path.exists() else ""
    if "--check" in argv:
        if current != text:
            print(f"{path}: stale; run `python -m torchfix.rewrite.manifest`")
            return 1
        return 0
    if current != text:
        path.write_text(text, encoding="utf-8")
        print(f"{path}: written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
