"""What each module raises: one parse of every module of the project, shared by the
project-wide facts about its raises (how it writes their messages, whose exception
classes it raises), each file's part remembered between runs under one memo."""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from torchfix.model.project import Project
from torchfix.model.scan_memo import every_answer, parse_if_mentions, project_modules

MEMO = "assert-to-raise-raise-census"


def census(project: Project, root: str) -> list[list[Any]]:
    """Each module's part (see `module_census`), for the modules below `root`, tests
    aside; scanned once per run (`Project.scans`), whichever fact asks first."""
    key = f"{MEMO}:{root}"
    if key not in project.scans:
        project.scans[key] = every_answer(project.memo(MEMO), project_modules(root),
                                          module_census)
    return project.scans[key]  # type: ignore[no-any-return]


def module_census(path: Path) -> list[Any]:
    """[[raises whose message is a variable, raises whose message is written inline],
    {class defined here: the last part of each base's name}, {name raised: count}] of the
    module at `path`."""
    # raises, and classes whose bases end in an exception's name (`(ValueError, T2NError):`)
    tree = parse_if_mentions(path, b"raise ", b"Error):", b"Exception):")
    forms = [0, 0]
    classes: dict[str, list[str]] = {}
    raised: Counter[str] = Counter()
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.ClassDef) and node.bases:
            classes[node.name] = [last_part(base) for base in node.bases]
        elif isinstance(node, ast.Raise) and node.exc is not None:
            exception = node.exc
            name = last_part(exception.func if isinstance(exception, ast.Call) else exception)
            if name:
                raised[name] += 1
            if isinstance(exception, ast.Call) and len(exception.args) == 1 \
                    and not exception.keywords:
                message = exception.args[0]
                if isinstance(message, ast.Name):
                    forms[0] += 1
                elif errmsg_rule(message) is not None:
                    forms[1] += 1
    return [forms, classes, dict(raised)]


def errmsg_rule(message: ast.expr | None) -> str | None:
    """The flake8-errmsg rule a `raise E(<message>)` breaks: EM101 (a string literal,
    also the generated one), EM102 (an f-string), EM103 (`"...".format(...)`)."""
    if message is None or (isinstance(message, ast.Constant) and isinstance(message.value, str)):
        return "EM101"
    if isinstance(message, ast.JoinedStr):
        return "EM102"
    if (isinstance(message, ast.Call) and isinstance(message.func, ast.Attribute)
            and message.func.attr == "format" and isinstance(message.func.value, ast.Constant)
            and isinstance(message.func.value.value, str)):
        return "EM103"
    return None


def last_part(node: ast.expr) -> str:
    """`ExportError` of `errors.ExportError`, of `Base[T]` its `Base`; "" for others."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def totals(parts: Iterable[list[Any]]) -> tuple[list[int], dict[str, set[str]], Counter[str]]:
    """The parts summed: message forms, every class with its bases, names raised."""
    forms = [0, 0]
    bases: dict[str, set[str]] = {}
    raised: Counter[str] = Counter()
    for module_forms, classes, names in parts:
        forms[0] += module_forms[0]
        forms[1] += module_forms[1]
        for name, base_names in classes.items():
            bases.setdefault(name, set()).update(base_names)
        raised.update(names)
    return forms, bases, raised
