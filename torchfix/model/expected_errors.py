"""Where a project's tests expect an `AssertionError`.

`with pytest.raises(AssertionError, match="gamma"): make_config(gamma=2)` tests that
`make_config` asserts, and `try: tp = make_tp(...)` / `except AssertionError: return
None` relies on it. Rewriting that assert into `raise ValueError` would fail the
test, so assert-to-raise leaves the asserts such tests rely on alone. Found in test
files anywhere under the project root: those holding the bytes `AssertionError` are
parsed (CPython's parser), nothing else.
"""

from __future__ import annotations

import ast
import os
import re
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from torchfix.model.ast_names import dotted
from torchfix.model.test_code import TEST_FOLDERS, TEST_HELPER_FILES

# Folders never holding the project's own tests.
_SKIPPED_FOLDERS = frozenset(
    {"node_modules", "site-packages", "__pycache__", "build", "dist", "venv", "env"}
)
_MAX_FILE_BYTES = 2_000_000
_RAISES_FUNCTIONS = frozenset({"raises"})  # pytest.raises
_RAISES_METHODS = frozenset({"assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})


@dataclass(frozen=True)
class Expectation:
    """A test expecting `AssertionError` from calling one of `callees`."""

    path: str  # relative to the project root
    line: int
    callees: frozenset[str]  # names called inside the expecting block (last dotted part)
    pattern: str | None = None  # `match=` / the regex of assertRaisesRegex

    def matches(self, function: str, message: str | None) -> bool:
        """Whether an assert in `function` (a def's name, or its class's for `__init__`)
        with this message (None: not a literal) is what this test expects."""
        if function not in self.callees:
            return False
        if self.pattern is None or message is None:
            return True
        try:
            return re.search(self.pattern, message) is not None
        except re.error:
            return True


def expectations_in(root: Path) -> Iterator[Expectation]:
    for path in test_files(root):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if b"AssertionError" not in data or len(data) > _MAX_FILE_BYTES:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(data, str(path))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        relative = path.relative_to(root).as_posix()
        yield from _expectations(tree, relative)


def test_files(root: Path, *, helpers: bool = True) -> Iterator[Path]:
    """The project's test files (with `helpers`: also `conftest.py`, `testing.py`, ...)."""
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(
            name for name in subfolders
            if not name.startswith(".") and name not in _SKIPPED_FOLDERS
        )
        relative_parts = Path(folder).relative_to(root).parts
        in_tests = any(part in TEST_FOLDERS for part in relative_parts)
        in_test_folder = any(part in ("test", "tests") for part in relative_parts)
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            helper = helpers and (in_tests or name in TEST_HELPER_FILES)
            test = name.startswith("test_") or name.endswith("_test.py") or (
                in_test_folder and name not in TEST_HELPER_FILES and name != "__init__.py")
            if helper or test:
                yield Path(folder) / name


# Library modules named like tests: helpers for the tests of the library's users.
_HELPER_NAMES = TEST_HELPER_FILES | {"test_helpers.py", "test_util.py", "test_helper.py"}
# What a file holding a test contains, searched for in its bytes before it is parsed.
_TEST_BYTES = re.compile(
    rb"^[ \t]*(?:async[ \t]+)?def[ \t]+test|^[ \t]*class[ \t]+Test|TestCase", re.MULTILINE
)


def holds_tests(path: Path) -> bool:
    """Whether the file holds a test pytest or unittest would run: a `test*` function or
    method, a `Test*` class or a `*TestCase` subclass. A module named like a helper
    (`test_utils.py`, `test_helpers.py`, `testing.py`, `conftest.py`) does not count."""
    if path.name in _HELPER_NAMES:
        return False
    try:
        data = path.read_bytes()
    except OSError:
        return False
    if len(data) > _MAX_FILE_BYTES or not _TEST_BYTES.search(data):
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data, str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True  # the bytes say so, and a test file that does not parse is still one
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name.startswith("test"):
                return True
        elif isinstance(node, ast.ClassDef) and (node.name.startswith("Test") or any(
                (dotted(base) or [""])[-1].endswith("TestCase") for base in node.bases)):
            return True
    return False


def _expectations(tree: ast.Module, path: str) -> Iterator[Expectation]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                expected = _expected_call(item.context_expr)
                if expected is not None:
                    yield Expectation(path, node.lineno, _callees(node.body), expected[1])
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            # try: tp = make_tp(...) / except AssertionError: return None — the test
            # relies on the assert to skip invalid parameters.
            handlers = getattr(node, "handlers", [])
            if any(h.type is not None and _names_assertion_error(h.type) for h in handlers):
                names = _callees(node.body)
                if names:
                    yield Expectation(path, node.lineno, names)
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            # pytest.raises(AssertionError, func, *args) / self.assertRaises(E, func, ...)
            expected = _expected_call(node)
            if expected is not None and expected[0] == "call":
                callee = node.args[2 if _method(node) == "assertRaisesRegex" else 1]
                names = _callees([callee], called_only=False)
                if names:
                    yield Expectation(path, node.lineno, names, expected[1])


def _method(call: ast.Call) -> str:
    name = dotted(call.func)
    return name[-1] if name else ""


def _expected_call(expr: ast.expr) -> tuple[str, str | None] | None:
    """("with" or "call", pattern) when `expr` expects an AssertionError."""
    if not isinstance(expr, ast.Call) or not expr.args:
        return None
    method = _method(expr)
    if method not in _RAISES_FUNCTIONS | _RAISES_METHODS:
        return None
    if not _names_assertion_error(expr.args[0]):
        return None
    pattern: str | None = None
    for keyword in expr.keywords:
        if keyword.arg in ("match", "expected_regex") and isinstance(keyword.value, ast.Constant):
            pattern = str(keyword.value.value)
    if method.startswith("assertRaisesRegex") and len(expr.args) >= 2:
        if isinstance(expr.args[1], ast.Constant):
            pattern = str(expr.args[1].value)
        form = "call" if len(expr.args) >= 3 else "with"
        return form, pattern
    return ("call" if len(expr.args) >= 2 else "with"), pattern


def _names_assertion_error(expr: ast.expr) -> bool:
    if isinstance(expr, ast.Tuple):
        return any(_names_assertion_error(element) for element in expr.elts)
    name = dotted(expr)
    return bool(name) and name[-1] == "AssertionError"


def _callees(body: list[ast.stmt] | list[ast.expr], called_only: bool = True) -> frozenset[str]:
    names: set[str] = set()
    for statement in body:
        for node in ast.walk(statement):
            target = node.func if isinstance(node, ast.Call) else None
            if target is None and not called_only and node is statement:
                target = node  # a function passed by reference
            name = dotted(target) if target is not None else []
            if name:
                names.add(name[-1])
    return frozenset(names)
