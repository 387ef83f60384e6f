"""The oldest Python a project says it supports, read from its own metadata.

Code a fix inserts must run there: atomic-save's helper uses f-strings and `os.fspath`
(Python 3.6), which a project still declaring Python 2.7 (torchbearer 0.5.5's
`Requires-Python: >=2.7,!=3.0.*,...`, round 21) cannot import. Looked for at the project
root: `pyproject.toml` (`[project] requires-python`, Poetry's `python` dependency),
`setup.cfg` and `setup.py` `python_requires`, an sdist's `PKG-INFO` or an unpacked wheel's
`*.dist-info/METADATA` (`Requires-Python`). Where several declare one, the lowest wins.
Where none does, the oldest `Programming Language :: Python :: X.Y` trove classifier.

Where nothing declares one, the project's own Python version checks say it: code that
branches on `sys.version_info[0] == 2` (or `six.PY2`) still runs on Python 2.7, and
`if sys.version_info >= (3, 4):` has a branch for Python 3.3 (pytorch-pretrained-bert
0.6.2, round 23, declares nothing and keeps both). A declared floor wins over them.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from torchfix.model.scan_memo import ScanMemo, every_answer, parse_if_mentions, project_modules
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


def find_python_floor(root: Path, memo: ScanMemo | None = None) -> PythonFloor | None:
    """The lowest Python floor the project's metadata declares; where it declares none,
    the lowest its own Python version checks show (each file's answer kept by `memo`);
    None where neither says."""
    found = [PythonFloor(version, source) for source, spec in _specifiers(root)
             if (version := parse_floor(spec)) is not None]
    if found:
        return min(found, key=lambda floor: floor.version)
    classified = _classified_floor(root)
    if classified is not None:
        return classified
    paths = list(project_modules(root))
    answers = every_answer(memo, paths, _version_checks)
    checks = [(path, line, (major, minor))
              for path, answer in zip(paths, answers, strict=True)
              for major, minor, line in answer["checks"]]
    modern = sum(1 for answer in answers if answer["f_string"])
    older = len({path for path, _, version in checks if version < (3, 6)})
    if modern > older:
        # more of its modules use f-strings (Python 3.6) than branch on an older Python:
        # those branches are leftovers (cogdl's copy of Planetoid's loader, round 23), not
        # a supported Python; pytorch-transformers 1.2.0 branches in 14 modules, and one
        # conversion script has an f-string
        checks = [check for check in checks if check[2] >= (3, 6)]
    if not checks:
        return None
    path, line, version = min(checks, key=lambda check: check[2])
    return PythonFloor(version, f"the Python version check at {relative_to(path, root)}:{line}")


def _version_checks(path: Path) -> dict[str, Any]:
    """What the module at `path` says of the Python it runs on: `checks`, [major, minor,
    line] of the oldest Python each version check still runs on (`sys.version_info[0] ==
    2` and `six.PY2` on 2.7, `sys.version_info >= (3, 4)` on 3.3, `sys.version_info >
    (3, 4)` on 3.4; a check that refuses the older Python, `if sys.version_info < (3, 6):
    sys.exit(...)` or an assert, says nothing of it), and `f_string`, whether it uses one.
    A JSON value: the scan memo keeps it."""
    tree = parse_if_mentions(path, b"version_info", b"PY2", b'f"', b"f'")
    checks: list[list[int]] = []
    if tree is None:
        return {"checks": checks, "f_string": False}
    refusing = {id(node.test) for node in ast.walk(tree)
                if isinstance(node, ast.If) and _refuses(node.body)}
    refusing |= {id(node.test) for node in ast.walk(tree) if isinstance(node, ast.Assert)}
    f_string = False
    for node in ast.walk(tree):
        f_string = f_string or isinstance(node, ast.JoinedStr)
        if id(node) in refusing:
            continue
        if isinstance(node, ast.Attribute) and node.attr == "PY2" and \
                isinstance(node.value, ast.Name) and node.value.id == "six":
            checks.append([2, 7, node.lineno])
        elif isinstance(node, ast.Compare) and len(node.ops) == 1:
            floor = _compared_floor(node.left, node.ops[0], node.comparators[0])
            if floor is not None:
                checks.append([*floor, node.lineno])
    return {"checks": checks, "f_string": f_string}


def _refuses(body: list[ast.stmt]) -> bool:
    """A branch that stops: `raise ...`, `sys.exit(...)`."""
    first = body[0] if body else None
    return isinstance(first, ast.Raise) or (
        isinstance(first, ast.Expr) and isinstance(first.value, ast.Call)
        and ast.unparse(first.value.func) in ("sys.exit", "exit", "quit"))


def _compared_floor(left: ast.expr, op: ast.cmpop, right: ast.expr) -> Version | None:
    """The oldest Python `<left> <op> <right>` shows the code runs on, where one side is
    `sys.version_info` (whole, `[0]`, `.major`, `[:2]`) and the other a literal."""
    whole = _version_info(left)
    if whole is None:
        return None
    literal = right.value if isinstance(right, ast.Constant) else (
        tuple(e.value for e in right.elts if isinstance(e, ast.Constant))
        if isinstance(right, ast.Tuple) else None)
    if isinstance(literal, int) and not whole:
        literal = (literal,)  # sys.version_info[0] == 2
    if not isinstance(literal, tuple) or not literal or \
            not all(isinstance(part, int) for part in literal):
        return None
    major, minor = literal[0], literal[1] if len(literal) > 1 else 0
    if major < 2 or major > 3:
        return None
    if not whole:
        return (2, 7)  # `sys.version_info[0] == 3`: the other branch is Python 2's
    if isinstance(op, ast.Eq | ast.Gt | ast.LtE):
        return (2, 7) if major == 2 else (3, minor)  # runs on the version itself
    if isinstance(op, ast.GtE | ast.Lt):  # a branch for the versions below
        return (2, 7) if major == 2 or minor == 0 else (3, minor - 1)
    return None


def _version_info(node: ast.expr) -> bool | None:
    """True for `sys.version_info` (or `[:2]`), False for its major part
    (`sys.version_info[0]`, `.major`), None for anything else."""
    if isinstance(node, ast.Subscript):
        inner = node.value
        if not _is_version_info(inner):
            return None
        if isinstance(node.slice, ast.Constant) and node.slice.value == 0:
            return False
        return True if isinstance(node.slice, ast.Slice) else None
    if isinstance(node, ast.Attribute) and node.attr == "major":
        return False if _is_version_info(node.value) else None
    return True if _is_version_info(node) else None


def _is_version_info(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "version_info" and \
        isinstance(node.value, ast.Name) and node.value.id == "sys"


# `Programming Language :: Python :: 3.5`: a version the project says it runs on.
_CLASSIFIER = re.compile(r"Programming Language :: Python :: (\d+)\.(\d+)\s*$")


def _classified_floor(root: Path) -> PythonFloor | None:
    """The oldest Python the project's trove classifiers name, where no `Requires-Python`
    says one: inferno-pytorch lists 3.5 and 3.6 and declares nothing else (round 42, where
    atomic-save's helper, with its f-strings, would not have imported). Read from
    `PKG-INFO` / `METADATA` headers, `pyproject.toml`'s `[project] classifiers`,
    `setup.cfg` and `setup.py`'s string literals."""
    found: list[PythonFloor] = []

    def note(text: str, source: str) -> None:
        match = _CLASSIFIER.search(text.strip())
        if match is not None:
            found.append(PythonFloor((int(match[1]), int(match[2])), source))

    for path in [root / "PKG-INFO", *sorted(root.glob("*.dist-info/METADATA"))]:
        for line in read_text(path).splitlines():
            if not line:
                break  # the headers end here and the README follows
            if line.startswith("Classifier:"):
                note(line.removeprefix("Classifier:"), relative_to(path, root))
    text = read_text(root / "pyproject.toml")
    if "Programming Language" in text:
        try:
            classifiers = tomllib.loads(text).get("project", {}).get("classifiers", [])
        except (tomllib.TOMLDecodeError, AttributeError):
            classifiers = []
        for classifier in classifiers if isinstance(classifiers, list) else []:
            if isinstance(classifier, str):
                note(classifier, "pyproject.toml")
    for line in read_text(root / "setup.cfg").splitlines():
        note(line, "setup.cfg")
    for node in _setup_py_nodes(root, "Programming Language"):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            note(node.value, "setup.py")
    if not found:
        return None
    oldest = min(found, key=lambda floor: floor.version)
    return PythonFloor(oldest.version, f"the classifiers of {oldest.source}")


def _setup_py_nodes(root: Path, needle: str) -> Iterator[ast.AST]:
    """Every node of the project's `setup.py`, where its text holds `needle`; none where
    it does not, or does not parse."""
    text = read_text(root / "setup.py")
    if needle not in text:
        return
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return
    yield from ast.walk(tree)


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
    for node in _setup_py_nodes(root, "python_requires"):
        if isinstance(node, ast.keyword) and node.arg == "python_requires" and \
                isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            yield "setup.py", node.value.value
    for path in [root / "PKG-INFO", *sorted(root.glob("*.dist-info/METADATA"))]:
        for line in read_text(path).splitlines():
            if line.startswith("Requires-Python:"):
                yield relative_to(path, root), line.removeprefix("Requires-Python:").strip()
            elif not line:
                # the headers end here and the README follows; a line of spaces is an
                # old-style `Description:` header's continuation (pytorch-fasterrcnn's
                # PKG-INFO states `Requires-Python` 80 lines below one, round 38)
                break
