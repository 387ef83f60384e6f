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
    # os.path on strings: called once per file of every run, where pathlib's objects
    # cost several times the stat calls themselves.
    file = os.path.abspath(path)
    folder, file_name = os.path.split(file)
    is_package = file_name == "__init__.py"
    parts = [] if is_package else [os.path.splitext(file_name)[0]]
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        parent, name = os.path.split(folder)
        if parent == folder:
            break
        parts.append(name)
        folder = parent
    if not parts:  # an __init__.py whose folder is not importable: name it by its folder
        parent, name = os.path.split(os.path.dirname(file))
        parts, folder = [name], parent
    return ModuleName(".".join(reversed(parts)), is_package, Path(folder))
