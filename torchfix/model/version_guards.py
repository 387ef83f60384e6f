"""The oldest torch a project's own code still runs on, read from its version checks.

A project that declares no torch requirement still says which torch it supports when its
code chooses by version: `if digit_version(torch.__version__) >= digit_version("1.10.0")`
has a branch for torch older than 1.10, so the code still runs there; a fix that needs
torch 1.13 would break it. Read from the project's Python files, its tests among them (a
test skipped on `torch.__version__ == "1.8.1"` says the suite runs on torch 1.8: mmrazor,
round 23), but not `setup.py`, whose comparisons choose requirements, not code paths.
These count:

- a comparison of the installed torch version (`torch.__version__`, wrapped in
  `parse`/`Version`/`LooseVersion`/`digit_version`/`.base_version`/`.release`/
  `.split("+")[0]`/`[:3]`, a name assigned from one, an imported `TORCH_VERSION`, a
  `get_torch_version()` / `torch_version()` helper as classy-vision's) with a literal
  version (`"1.10"`, `parse("1.12")`, `(1, 9)`, `[1, 7]`, a name assigned from one),
  `==` among the comparisons;
- `torch.__version__.startswith("1.8")`;
- a helper called with `torch` in its name and a literal version
  (`is_torch_greater_or_equal("2.0")`, `is_torch_version(">=", "2.0")`),
  `compare_version("torch", operator.ge, "1.13")`, a `"torch>=2.0"` requirement string
  in code (`RequirementCache("torch>=2.0")`);
- a feature probe with a well-known first version (`hasattr(torch, "compile")`: 2.0).

`v >= X` / `v < X` (and a helper or probe for X) mean the code runs below X: the floor
is the release just below X (`1.10` → 1.9, `1.8.1` → 1.8, `2.0` → 1.13, `1.0` → 0.4);
`v > X` / `v <= X` / `v == X` mean it runs on X itself (X's major.minor). A check that refuses the
older torch (`if v < X: raise ...`, `assert v >= X`) gives X. Versions below 1.0 are
ignored (a torchvision version compared with torch's by mistake), as is a project that
is torch itself. The lowest floor found wins: the code has to run on all of them.
"""

from __future__ import annotations

import ast
import os
import re
import warnings
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from torchfix.model.ast_names import dotted
from torchfix.model.test_code import is_test_path

if TYPE_CHECKING:
    from torchfix.model.scan_memo import ScanMemo

Version = tuple[int, int]

_SKIPPED_FOLDERS = frozenset(
    {"node_modules", "site-packages", "__pycache__", "build", "dist", "venv", "env"})
_MAX_FILE_BYTES = 2_000_000
_MAX_FILES = 20_000  # a run from a home folder must not read all of it
_TRIGGER = re.compile(
    rb"\w\.__version__|from torch(?:\.version)? import __version__|TORCH_VERSION"
    rb"|torch_version|is_torch|_torch\(|compare_version|torch\s*[<>]"
    rb"|hasattr\([\w.]+,\s*[\"'](?:compile|vmap|func|scaled_dot_product_attention"
    rb"|inference_mode|autocast)[\"']", re.IGNORECASE)
# Literal bytes one of _TRIGGER's forms holds: `in` finds them at memory speed, where the
# case-blind pattern reads a few tens of MB/s (a warm run re-checks the floor every time).
_TRIGGER_LITERALS = (b"_version", b"_VERSION", b"is_torch", b"IS_TORCH", b"_torch(")
_TORCH_COMPARED = re.compile(rb"(?i:orch)\s*[<>]")
_PROBE_TRIGGER = re.compile(  # hasattr is common: its probes are matched on their own
    rb"hasattr\([\w.]+,\s*[\"'](?:compile|vmap|func|scaled_dot_product_attention"
    rb"|inference_mode|autocast)[\"']")
_VERSION_TEXT = re.compile(r"^\s*v?(\d+)\.(\d+)(?:\.(\d+))?")
_REQUIREMENT_TEXT = re.compile(r"^\s*(?:py)?torch\s*(>=|>|<=|<|==)\s*(\d+\.\d+(?:\.\d+)?)\s*$")
_VERSION_NAMES = frozenset({"TORCH_VERSION", "PYTORCH_VERSION"})
_HELPER = re.compile(r"torch", re.IGNORECASE)
_HELPER_WORDS = re.compile(
    r"version|greater|less|older|newer|before|after|least|most|min|max|_ge|_gt|_lt|_le",
    re.IGNORECASE)
_LAST_MINOR = {0: 4, 1: 13}  # the last release of torch 0.x and 1.x
# hasattr(<module>, <name>) probes: the first torch that has the name.
_PROBES: dict[tuple[str, str], tuple[int, int, int]] = {
    ("torch", "compile"): (2, 0, 0),
    ("torch", "vmap"): (2, 0, 0),
    ("torch", "func"): (2, 0, 0),
    ("torch.nn.functional", "scaled_dot_product_attention"): (2, 0, 0),
    ("torch", "inference_mode"): (1, 9, 0),
    ("torch", "autocast"): (1, 10, 0),
}
_OPERATORS = {ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=", ast.Lt: "<"}
_FLIPPED = {">=": "<=", ">": "<", "<=": ">=", "<": ">"}


@dataclass(frozen=True)
class Guard:
    """A torch version check in the project's code, and the floor it shows."""

    version: Version  # the oldest torch this check shows the code still runs on
    path: str  # relative to the project root
    line: int


def find_guard_floor(root: Path, memo: ScanMemo | None = None) -> Guard | None:
    """The lowest floor the version checks in the project's code show; with a
    `memo`, only files changed since it was written are read."""
    if (root / "torch" / "__init__.py").is_file():
        return None  # torch itself: its checks are about other tools
    lowest: Guard | None = None
    for path in _code_files(root):
        relative = path.relative_to(root).as_posix()
        if memo is None:
            found = list(guards_in_file(path, root))
        else:
            found = [Guard((major, minor), relative, line) for major, minor, line in memo.result(
                path, relative, lambda file: [[*guard.version, guard.line]
                                              for guard in guards_in_file(file, root)])]
        for guard in found:
            if lowest is None or guard.version < lowest.version:
                lowest = guard
    if memo is not None:
        memo.save()
    return lowest


def guards_in_file(path: Path, root: Path) -> Iterator[Guard]:
    try:
        data = path.read_bytes()
    except OSError:
        return
    if len(data) > _MAX_FILE_BYTES or not _may_hold_guard(data):
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data, str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    relative = path.relative_to(root).as_posix()
    for version, line in _Reader(tree, checking=is_test_path(path)).floors():
        yield Guard(version, relative, line)


def _may_hold_guard(data: bytes) -> bool:
    if _PROBE_TRIGGER.search(data) is not None:
        return True
    return (any(literal in data for literal in _TRIGGER_LITERALS)
            or _TORCH_COMPARED.search(data) is not None) and _TRIGGER.search(data) is not None


def _code_files(root: Path) -> Iterator[Path]:
    count = 0
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(
            name for name in subfolders
            if not name.startswith(".") and name not in _SKIPPED_FOLDERS)
        at_root = Path(folder) == root
        for name in sorted(files):
            if not name.endswith(".py") or (at_root and name == "setup.py"):
                continue
            count += 1
            if count > _MAX_FILES:
                return
            yield Path(folder) / name


def below(version: tuple[int, int, int]) -> Version | None:
    """The release just below `version`: 1.8.1 → 1.8, 1.10 → 1.9, 2.0 → 1.13."""
    major, minor, patch = version
    if patch > 0:
        return major, minor
    if minor > 0:
        return major, minor - 1
    if major - 1 in _LAST_MINOR:
        return major - 1, _LAST_MINOR[major - 1]
    return None  # below 3.0: some 2.x, which says nothing


def floor_for(operator: str, version: tuple[int, int, int], refused: bool = False
              ) -> Version | None:
    """The floor `installed <operator> version` shows; `refused`: the older torch is
    refused (the check raises), so the version itself is the floor."""
    if version[0] < 1:
        return None
    if refused or operator in (">", "<="):
        return version[0], version[1]
    if operator in (">=", "<"):
        return below(version)
    return None


class _Reader:
    def __init__(self, tree: ast.Module, checking: bool = False) -> None:
        self.tree = tree
        # a test's assert of the version checks the torch it runs on, and says nothing
        # of the oldest one (`assert torch.__version__ >= "1.2"`); its skips do
        self.checking = checking
        self.torch = {"torch"}  # names bound to the torch module
        self.functional: set[str] = set()  # names bound to torch.nn.functional
        self.installed: set[str] = set()  # names holding the installed torch version
        self.literals: dict[str, tuple[int, int, int]] = {}
        self._bind()

    def _bind(self) -> None:
        assignments: list[tuple[str, ast.expr]] = []
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "torch" and alias.asname:
                        self.torch.add(alias.asname)
                    if alias.name == "torch.nn.functional" and alias.asname:
                        self.functional.add(alias.asname)
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    bound = alias.asname or alias.name
                    if alias.name.lstrip("_").upper() in _VERSION_NAMES or (
                            alias.name == "__version__" and node.module in ("torch",
                                                                            "torch.version")):
                        self.installed.add(bound)
                    if node.module == "torch.nn" and alias.name == "functional":
                        self.functional.add(bound)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
                    node.targets[0], ast.Name):
                assignments.append((node.targets[0].id, node.value))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and (
                    node.value is not None):
                assignments.append((node.target.id, node.value))
        for _ in range(2):  # a name assigned from a name assigned earlier
            for name, value in assignments:
                literal = self.literal(value)
                if literal is not None:
                    self.literals.setdefault(name, literal)
                elif self.is_installed(value) or (
                        "version" in name.lower() and self._mentions_installed(value)
                        and not re.search("major|minor", name, re.IGNORECASE)):
                    self.installed.add(name)
        for name in set(self.literals) & self.installed:  # bound both ways: neither
            del self.literals[name]
            self.installed.discard(name)

    def _mentions_installed(self, node: ast.expr) -> bool:
        return any(isinstance(n, ast.Attribute) and n.attr == "__version__"
                   and ".".join(dotted(n.value)) in self.torch
                   for n in ast.walk(node))

    def is_installed(self, node: ast.expr) -> bool:
        """Whether `node` is the installed torch's version, in one of its spellings."""
        if isinstance(node, ast.Name):
            return node.id in self.installed
        if isinstance(node, ast.Attribute):
            if node.attr == "__version__":
                parts = dotted(node.value)
                return bool(parts) and (".".join(parts) in self.torch or (
                    len(parts) == 2 and parts[0] in self.torch and parts[1] == "version"))
            if node.attr in ("base_version", "release", "public"):
                return self.is_installed(node.value)
            return False
        if isinstance(node, ast.Call):
            if not node.args and not node.keywords:  # classy-vision's get_torch_version()
                name = node.func.attr if isinstance(node.func, ast.Attribute) else (
                    node.func.id if isinstance(node.func, ast.Name) else "")
                return re.fullmatch(r"(?:get_)?torch_version", name, re.IGNORECASE) is not None
            return (len(node.args) == 1 and _version_callee(node.func)
                    and self.is_installed(node.args[0]))
        if isinstance(node, ast.Subscript):
            if isinstance(node.slice, ast.Slice):  # torch.__version__[:3]
                return self.is_installed(node.value)
            call = node.value  # torch.__version__.split("+")[0]
            return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "split" and len(call.args) == 1
                    and isinstance(call.args[0], ast.Constant) and call.args[0].value == "+"
                    and isinstance(node.slice, ast.Constant) and node.slice.value == 0
                    and self.is_installed(call.func.value))
        return False

    def literal(self, node: ast.expr) -> tuple[int, int, int] | None:
        """The version a literal spells: "1.10", parse("1.12"), (1, 9), a name bound to one."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = _VERSION_TEXT.match(node.value)
            if match is None:
                return None
            return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)
        if isinstance(node, (ast.Tuple, ast.List)) and 2 <= len(node.elts) <= 3 and all(
                isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts):
            numbers = [e.value for e in node.elts]  # type: ignore[attr-defined]
            return numbers[0], numbers[1], numbers[2] if len(numbers) > 2 else 0
        if isinstance(node, ast.Name):
            return self.literals.get(node.id)
        if isinstance(node, ast.Call) and len(node.args) == 1 and _version_callee(node.func):
            return self.literal(node.args[0])
        if isinstance(node, ast.Attribute) and node.attr in ("release", "base_version"):
            return self.literal(node.value)
        return None

    def floors(self) -> Iterator[tuple[Version, int]]:
        refusing = self._refusing_tests()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Compare):
                if self.checking and id(node) in refusing:
                    continue
                yield from self._compare(node, refused=id(node) in refusing)
            elif isinstance(node, ast.Call):
                found = self._call(node)
                if found is not None:
                    yield found, node.lineno

    def _refusing_tests(self) -> set[int]:
        """The comparisons whose failing side refuses the torch: `if v < X: raise`,
        `assert v >= X`."""
        found: set[int] = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.If) and any(isinstance(s, ast.Raise) for s in node.body):
                found.update(id(n) for n in ast.walk(node.test) if isinstance(n, ast.Compare)
                             and self._direction(n) == "older")
            elif isinstance(node, ast.Assert):
                found.update(id(n) for n in ast.walk(node.test) if isinstance(n, ast.Compare)
                             and self._direction(n) == "newer")
        return found

    def _pairs(self, node: ast.Compare) -> Iterator[tuple[str, tuple[int, int, int]]]:
        """(operator with the installed version on the left, literal version)."""
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands[:-1], operands[1:], strict=True):
            operator = _OPERATORS.get(type(op))
            if operator is None:
                continue
            if self.is_installed(left) and (version := self.literal(right)) is not None:
                yield operator, version
            elif self.is_installed(right) and (version := self.literal(left)) is not None:
                yield _FLIPPED[operator], version

    def _direction(self, node: ast.Compare) -> str | None:
        """"older" for `v < X`, "newer" for `v >= X` (one pair only)."""
        pairs = list(self._pairs(node))
        if len(pairs) != 1:
            return None
        return "older" if pairs[0][0] in ("<", "<=") else "newer"

    def _compare(self, node: ast.Compare, refused: bool) -> Iterator[tuple[Version, int]]:
        for operator, version in self._pairs(node):
            floor = floor_for(operator, version, refused)
            if floor is not None:
                yield floor, node.lineno
        if len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
            # `v == X` (a test skipped on one release): the code meets X itself
            left, right = node.left, node.comparators[0]
            version = (self.literal(right) if self.is_installed(left)
                       else self.literal(left) if self.is_installed(right) else None)
            if version is not None and version[0] >= 1:
                yield (version[0], version[1]), node.lineno

    def _call(self, node: ast.Call) -> Version | None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else (
            func.id if isinstance(func, ast.Name) else "")
        strings = [a.value for a in node.args
                   if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        # torch.__version__.startswith("1.8")
        if (name == "startswith" and isinstance(func, ast.Attribute)
                and self.is_installed(func.value) and len(strings) == 1):
            match = re.match(r"^(\d+)\.(\d+)?", strings[0])
            if match is not None and int(match.group(1)) >= 1:
                major = int(match.group(1))
                return major, int(match.group(2)) if match.group(2) else _LAST_MINOR.get(major, 0)
            return None
        # RequirementCache("torch>=2.0")
        for text in strings:
            match = _REQUIREMENT_TEXT.match(text)
            if match is not None:
                version = _VERSION_TEXT.match(match.group(2))
                assert version is not None
                return floor_for(match.group(1), (int(version.group(1)), int(version.group(2)),
                                                  int(version.group(3) or 0)))
        # hasattr(torch, "compile")
        if name == "hasattr" and len(node.args) == 2 and len(strings) == 1:
            module = ".".join(dotted(node.args[0]))
            qualified = ("torch" if module in self.torch else
                         "torch.nn.functional" if module in self.functional or (
                             module.split(".", 1)[0] in self.torch
                             and module.split(".", 1)[-1] == "nn.functional") else None)
            first = _PROBES.get((qualified or "", strings[0]))
            return below(first) if first is not None else None
        # is_torch_greater_or_equal("2.0"), compare_version("torch", operator.ge, "1.13")
        helper = (_HELPER.search(name) is not None and _HELPER_WORDS.search(name) is not None) or (
            "version" in name.lower() and any(s.lower() in ("torch", "pytorch") for s in strings))
        if not helper:
            return None
        versions = [v for s in strings if (v := self.literal(ast.Constant(s))) is not None]
        if len(versions) != 1:
            return None
        operator = next((s.strip() for s in strings if s.strip() in _OPERATORS.values()), ">=")
        comparison = next((".".join(dotted(a)) for a in node.args if dotted(a)), "")
        operator = {"le": "<=", "gt": ">"}.get(comparison.rsplit(".", 1)[-1], operator)
        return floor_for(operator, versions[0])


def _version_callee(func: ast.expr) -> bool:
    parts = dotted(func)
    if not parts:
        return False
    name = parts[-1]
    return name in ("str", "parse") or "version" in name.lower()


# One reader a module's tree (it binds the names of the whole module once): a codemod asks
# for every old name it finds.
_READERS: weakref.WeakKeyDictionary[ast.Module, _Reader] = weakref.WeakKeyDictionary()


def older_branch_ceiling(tree: ast.Module, node: ast.AST,
                         ancestors: Iterable[ast.AST]) -> Version | None:
    """The torch version the code at `node` runs below, where it sits in the branch a
    version check keeps for older torch: the `else` of `if torch.__version__ >= "2.0":`,
    the body of `if v < (2, 0):` → (2, 0); `v <= "1.13"` → (1, 14). The lowest of the
    checks around it; None where no check around it picks older torch. `ancestors`: the
    nodes around `node`, innermost first."""
    ceiling: Version | None = None
    child = node
    for parent in ancestors:
        if isinstance(parent, ast.If | ast.IfExp) and child is not parent.test:
            if isinstance(parent, ast.If):
                in_body = any(statement is child for statement in parent.body)
            else:
                in_body = parent.body is child
            test = parent.test
            pairs: list[tuple[str, tuple[int, int, int]]] = []
            if isinstance(test, ast.Compare):
                reader = _READERS.get(tree)
                if reader is None:
                    reader = _READERS[tree] = _Reader(tree)
                pairs = list(reader._pairs(test))
            elif isinstance(test, ast.Call):
                pairs = [pair for pair in [_helper_check(test)] if pair is not None]
            if len(pairs) == 1:
                operator, (major, minor, _) = pairs[0]
                older_in_body = operator in ("<", "<=")
                if in_body == older_in_body:
                    below = (major, minor) if operator in ("<", ">=") else (major, minor + 1)
                    ceiling = below if ceiling is None else min(ceiling, below)
        child = parent
    return ceiling


# Helpers of libraries that compare the installed torch with a version: diffusers'
# `is_torch_version(">=", "1.11.0")` (IOPaint's copies of its UNet blocks, round 26),
# transformers' `is_torch_greater_or_equal("2.0")`.
_HELPER_OPERATORS = {"is_torch_greater_or_equal": ">=", "is_torch_greater_than": ">",
                     "is_torch_less_than": "<", "torch_version_at_least": ">="}


def _helper_check(test: ast.Call) -> tuple[str, tuple[int, int, int]] | None:
    """(operator, version) for a library helper's check of the installed torch."""
    name = dotted(test.func)[-1:] if dotted(test.func) else []
    texts = [argument.value for argument in test.args
             if isinstance(argument, ast.Constant) and isinstance(argument.value, str)]
    if not name or len(texts) != len(test.args) or test.keywords:
        return None
    if name[0] == "is_torch_version" and len(texts) == 2 and texts[0] in _FLIPPED:
        operator, version = texts
    elif name[0] in _HELPER_OPERATORS and len(texts) == 1:
        operator, version = _HELPER_OPERATORS[name[0]], texts[0]
    else:
        return None
    numbers = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", version)
    if numbers is None:
        return None
    return operator, (int(numbers[1]), int(numbers[2]), int(numbers[3] or 0))


# What an `except` clause of an import fallback catches: a failed import, or anything.
_IMPORT_FAILURES = frozenset({"ImportError", "ModuleNotFoundError", "Exception",
                              "BaseException"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def in_import_fallback(node: ast.AST, ancestors: Iterable[ast.AST]) -> bool:
    """Whether `node` is one arm of a version fallback made with `try`: it sits in an
    `except ImportError:` (`ModuleNotFoundError`, a tuple holding one, `Exception`, a bare
    `except:`) clause, or it is an import in the `try:` body of such a clause that imports
    too (`try: from new import X` / `except ImportError: from old import X`). Either arm
    is there for a torch the other does not fit, so a rename would make the two the same
    (round 13: verl's DTensor fallback). `ancestors`: the nodes around `node`, innermost
    first; the search stops at the function or class that holds `node`."""
    child = node
    for parent in ancestors:
        if isinstance(parent, _SCOPES):
            return False
        if isinstance(parent, ast.ExceptHandler) and _catches_import_failure(parent):
            return True
        if (isinstance(parent, ast.Try | ast.TryStar)
                and isinstance(node, ast.Import | ast.ImportFrom)
                and any(statement is child for statement in parent.body)
                and any(_catches_import_failure(handler) and _imports(handler)
                        for handler in parent.handlers)):
            return True
        child = parent
    return False


def _catches_import_failure(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    if caught is None:
        return True
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return any((dotted(name) or [""])[-1] in _IMPORT_FAILURES for name in names)


def _imports(handler: ast.ExceptHandler) -> bool:
    return any(isinstance(inner, ast.Import | ast.ImportFrom)
               for statement in handler.body for inner in ast.walk(statement))
