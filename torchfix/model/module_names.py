"""The dotted name Python imports a file by: the packages (folders with an `__init__.py`)
above it. Read by the project model and by the scans that walk a project's modules
(expected errors, components) without needing the project model itself."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple


class ModuleName(NamedTuple):
    """The module name of a file, and the folder it is relative to."""

    name: str  # "pkg.sub.mod"; for a file outside any package: its stem
    is_package: bool  # an `__init__.py`
    source_root: Path  # the folder `name` is relative to


def module_name_for(path: Path) -> ModuleName:
    """The dotted name Python imports `path` by: its packages (folders with an
    `__init__.py`) above it, up to the first folder that is not one."""
    path = Path(os.path.abspath(path))
    is_package = path.name == "__init__.py"
    parts = [] if is_package else [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        parts.append(folder.name)
        folder = folder.parent
    if not parts:  # an __init__.py whose folder is not importable: name it by its folder
        parts, folder = [path.parent.name], path.parent.parent
    return ModuleName(".".join(reversed(parts)), is_package, folder)
