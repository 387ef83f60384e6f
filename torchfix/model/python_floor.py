"""The oldest Python a project says it supports, read from its own metadata.

Code a fix inserts must run there: atomic-save's helper uses f-strings and `os.fspath`
(Python 3.6), which a project still declaring Python 2.7 (torchbearer 0.5.5's
`Requires-Python: >=2.7,!=3.0.*,...`, round 21) cannot import. Looked for at the project
root: `pyproject.toml` (`[project] requires-python`, Poetry's `python` dependency),
`setup.cfg` and `setup.py` `python_requires`, an sdist's `PKG-INFO` or an unpacked wheel's
`*.dist-info/METADATA` (`Requires-Python`). Where several declare one, the lowest wins.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from torchfix.model.torch_floor import parse_floor, read_text, relative_to

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

Version = tuple[int, int]


@dataclass(frozen=True)
class PythonFloor:
    """The oldest Python a project declares it supports, and where it says so."""

    version: Version
    source: str  # the file (relative to the project root) that declared it


def find_python_floor(root: Path) -> PythonFloor | None:
    """The lowest Python floor the project's metadata declares; None where none does."""
    found = [PythonFloor(version, source) for source, spec in _specifiers(root)
             if (version := parse_floor(spec)) is not None]
    return min(found, key=lambda floor: floor.version) if found else None


def _specifiers(root: Path) -> Iterator[tuple[str, str]]:
    """(file, version specifier) for every Python requirement the metadata declares."""
    text = read_text(root / "pyproject.toml")
    if "python" in text:
        try:
            document = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            document = {}
        project = document.get("project", {})
        if isinstance(project, dict) and isinstance(project.get("requires-python"), str):
            yield "pyproject.toml", project["requires-python"]
        poetry = document.get("tool", {}).get("poetry", {})
        dependencies = poetry.get("dependencies", {}) if isinstance(poetry, dict) else {}
        if isinstance(dependencies, dict) and isinstance(dependencies.get("python"), str):
            yield "pyproject.toml", dependencies["python"]
    text = read_text(root / "setup.cfg")
    if "python_requires" in text:
        import configparser  # here: only projects with a setup.cfg need it

        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(text)
        except configparser.Error:
            pass
        else:
            for section in parser.sections():
                if parser.has_option(section, "python_requires"):
                    yield "setup.cfg", parser.get(section, "python_requires")
    text = read_text(root / "setup.py")
    if "python_requires" in text:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError):
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.keyword) and node.arg == "python_requires" and \
                    isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                yield "setup.py", node.value.value
    for path in [root / "PKG-INFO", *sorted(root.glob("*.dist-info/METADATA"))]:
        for line in read_text(path).splitlines():
            if line.startswith("Requires-Python:"):
                yield relative_to(path, root), line.removeprefix("Requires-Python:").strip()
            elif not line.strip():
                break  # the headers end here; the README follows
