"""Whether a module can be imported at all: the modules its relative imports name exist.

torchcv ships `image/detection.py` and `image/image.py` copied whole from mxnet: `from
..base import numeric_types`, `from ..ndarray._internal import ...` name modules torchcv
does not have, so nothing can import either file, and round 36's reviewer called every
fix offered in them wrong (dead code no one can run or test). A module is taken for such
a copy only where two or more of the relative imports at its top level name modules its
package lacks: one missing module may be one a build writes (`from .version import
__version__`, a compiled extension named only in setup.py).
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from pathlib import Path

# How many missing modules make a module a stray copy (see the module docstring).
MISSING_FOR_UNIMPORTABLE = 2


def module_present(folder: Path, name: str) -> bool:
    """Whether `folder` holds a module or package `name` in any form: a package folder,
    source, stub, Cython source or a compiled extension (`name.cpython-311-...so`),
    even a C source a build compiles into one, in any case of letters. A folder that
    cannot be listed holds it, as far as anyone can tell."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return True
    # Case aside: on macOS and Windows `from .bvat import x` imports `BVAT/`
    # (graphgallery's), and the maintainers' platform decides what imports.
    name, prefix = name.casefold(), name.casefold() + "."
    return any(entry.casefold() == name or entry.casefold().startswith(prefix)
               for entry in entries)


def missing_relative_imports(tree: ast.Module, path: Path, root: Path,
                             present: Callable[[Path, str], bool] = module_present
                             ) -> list[tuple[str, int]]:
    """The relative imports at the top level of the module at `path` (`from ..base import
    x`, not inside a `try`, an `if` or a function) whose module is missing from its
    package below `root`, as written (`..base`), with their lines. `present(folder,
    name)` says whether a folder holds a module. Not judged: imports reaching above
    `root`, and those through a folder without an `__init__.py`, a namespace package's
    portion that other distributions fill (optimum-neuron's `optimum/commands/`, whose
    `..base` the `optimum` distribution ships)."""
    missing: list[tuple[str, int]] = []
    for statement in tree.body:
        if not isinstance(statement, ast.ImportFrom) or not statement.level or \
                statement.module is None:
            continue
        package = _package_of(path.parent, statement.level, root)
        if package is None:
            continue
        folder = package
        for part in statement.module.split("."):
            if not present(folder, part):
                missing.append(("." * statement.level + statement.module, statement.lineno))
                break
            if not (folder / part).is_dir():
                break  # a module file: what it defines is not judged here
            folder = folder / part
    return missing


def _package_of(folder: Path, level: int, root: Path) -> Path | None:
    """The package a relative import of `level` dots in `folder` is relative to, where
    every folder on the way is a regular package below `root`; None elsewhere."""
    for step in range(level):
        if step:
            folder = folder.parent
        if not folder.is_relative_to(root) or not (folder / "__init__.py").is_file():
            return None
    return folder
