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
    even a C source a build compiles into one. A folder that cannot be listed holds it,
    as far as anyone can tell."""
    if (folder / name).is_dir():
        return True
    try:
        entries = os.listdir(folder)
    except OSError:
        return True
    prefix = name + "."
    return any(entry.startswith(prefix) for entry in entries)


def missing_relative_imports(tree: ast.Module, path: Path, root: Path,
                             present: Callable[[Path, str], bool] = module_present
                             ) -> list[tuple[str, int]]:
    """The relative imports at the top level of the module at `path` (`from ..base import
    x`, not inside a `try`, an `if` or a function) whose module is missing from its
    package below `root`, as written (`..base`), with their lines. `present(folder,
    name)` says whether a folder holds a module; imports reaching above `root` are not
    judged."""
    missing: list[tuple[str, int]] = []
    for statement in tree.body:
        if not isinstance(statement, ast.ImportFrom) or not statement.level or \
                statement.module is None:
            continue
        folder = path.parent
        for _ in range(statement.level - 1):
            folder = folder.parent
        if not folder.is_relative_to(root):
            continue
        for part in statement.module.split("."):
            if not present(folder, part):
                missing.append(("." * statement.level + statement.module, statement.lineno))
                break
            if not (folder / part).is_dir():
                break  # a module file: what it defines is not judged here
            folder = folder / part
    return missing
