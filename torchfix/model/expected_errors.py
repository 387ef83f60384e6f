"""Where a project's tests expect an `AssertionError`.

`with pytest.raises(AssertionError, match="gamma"): make_config(gamma=2)` tests that
`make_config` asserts, and `try: tp = make_tp(...)` / `except AssertionError: return
None` relies on it. Rewriting that assert into `raise ValueError` would fail the
test, so assert-to-raise leaves the asserts such tests rely on alone. Found in test
files anywhere under the project root: those holding the bytes `AssertionError` are
parsed (CPython's parser), nothing else.

The assert a test expects is often deeper than the call the test makes:
`TabularModel(...)` builds a config whose `__post_init__` asserts, a test helper calls
`model.predict(...)`, which asserts. Each expectation therefore also records its
`entries`: the project names its block calls, resolved in the test file (imports, a test
helper's body, `model.predict` on a `model = TabularModel(...)`), and `reach()` follows
them through the project's modules (`REACH_DEPTH` calls deep) to every function whose
asserts the test may be the one expecting.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from torchfix.model.ast_names import dotted
from torchfix.model.facts import constructed_name
from torchfix.model.module_names import module_name_for
from torchfix.model.scan_memo import project_modules
from torchfix.model.semantic import BindingKind, SemanticModel
from torchfix.model.test_code import TEST_FOLDERS, TEST_HELPER_FILES

if TYPE_CHECKING:
    from torchfix.model.facts import ClassFacts, ModuleFacts, Signature


class Project(Protocol):
    """What `reach()` reads of the project model (`torchfix.model.project.Project`)."""

    def module(self, name: str) -> ModuleFacts | None: ...

    def module_path(self, name: str) -> Path | None: ...

    def class_facts(self, qualified: str | None) -> ClassFacts | None: ...

    def ancestors(self, qualified: str) -> Iterator[str | None]: ...

    def find_method(self, qualified: str, method: str) -> tuple[str, Signature] | None: ...

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
    # The other exceptions the test accepts (`pytest.raises((AssertionError, ValueError))`,
    # another `except` of the `try`), by their last dotted part; "*" for a bare `except:`.
    tolerated: frozenset[str] = frozenset()
    # The project names the block calls, as the test file resolves them: "pkg.Config",
    # "pkg.model.Model.predict" (a method called on a `Model(...)`); a test helper's calls
    # in its place. Followed into the project by `reach()`.
    entries: tuple[str, ...] = ()
    # A `try: ... except AssertionError:` of the project's own code, not a test (hivemind
    # retries an averaging round on it): followed through `entries` only, never matched
    # by a callee's name alone, which in library code says too little.
    handler: bool = False

    def matches(self, function: str, message: str | None) -> bool:
        """Whether an assert in `function` (a def's name, or its class's for `__init__`)
        with this message (None: not a literal) is what this test expects."""
        if function not in self.callees:
            return False
        return self.fits(message)

    def accepts(self, exception: str) -> bool:
        """Whether the test passes as well when `exception` is raised instead."""
        return bool({exception, "Exception", "BaseException", "*"} & self.tolerated)

    def fits(self, message: str | MessageTemplate | None) -> bool:
        """Whether the test's pattern, if any, fits this message (None: not a literal; a
        tuple: an f-string's parts, None for each formatted value)."""
        if self.pattern is None or message is None:
            return True
        if isinstance(message, tuple):
            return template_may_contain(message, self.pattern)
        try:
            return re.search(self.pattern, message) is not None
        except re.error:
            return True


# An f-string message as its parts: the literal text, None where a value is formatted in
# (`f"probe expects {self.embed_dim}-dim features"` → ("probe expects ", None,
# "-dim features")).
MessageTemplate = tuple[str | None, ...]
# The share of a test's pattern an f-string message's literal text must spell.
LITERAL_SHARE = 0.6

_REGEX_SYNTAX = re.compile(r"(?<!\\)[.^$*+?{}\[\]|()]")


def literal_pattern(pattern: str) -> str | None:
    """The text a `match=` pattern stands for when it is a plain string (escapes
    `re.escape` adds undone); None for a pattern with regex syntax."""
    if _REGEX_SYNTAX.search(pattern):
        return None
    return re.sub(r"\\(\W)", r"\1", pattern)


def template_may_contain(template: MessageTemplate, pattern: str) -> bool:
    """Whether some message the f-string makes holds what `pattern` matches, each
    formatted value standing for any text: canvit's test matches "probe expects 32-dim
    features" against `f"probe expects {self.embed_dim}-dim features, got {D}"`. A
    pattern with regex syntax fits where each run of plain text between its syntax does
    (`expects \\d+-dim`: "expects ", "-dim"); one with alternatives (`|`) always fits
    (the assert is then left alone, the cautious side)."""
    text = literal_pattern(pattern)
    if text is None:
        if "|" in pattern:
            return True
        runs = re.split(r"\\[A-Za-z]|(?<!\\)[.^$*+?{}\[\]()]+", pattern)
        return all(template_may_contain(template, re.escape(literal_pattern(run) or ""))
                   for run in runs if run and literal_pattern(run))
    if not text:
        return True

    @functools.cache
    def literal_chars(at: int, part: int, offset: int) -> int:
        # The most characters of text[at:] the template's literal text can spell from
        # template[part] (from `offset`) on, the formatted values spelling the rest; -1
        # where it cannot be spelled at all.
        if at == len(text):
            return 0
        if part == len(template):
            return -1
        literal = template[part]
        if literal is None:  # a formatted value: any number of characters
            return max(literal_chars(at + taken, part + 1, 0)
                       for taken in range(len(text) - at + 1))
        rest = literal[offset:]
        length = min(len(rest), len(text) - at)
        if text[at:at + length] != rest[:length]:
            return -1
        after = literal_chars(at + length, part + 1, 0)
        return -1 if after < 0 else after + length

    # Most of what the test names must be the message's own words, not the values
    # formatted into it: a value can be any text, so it could spell any pattern alone.
    best = max(literal_chars(0, index, offset)
               for index, literal in enumerate(template)
               for offset in range(1 if literal is None else max(len(literal), 1)))
    return best >= LITERAL_SHARE * len(text)


def expectations_in(root: Path) -> Iterator[Expectation]:
    """The tests expecting AssertionError under `root`, then the handlers of the project's
    own code that catch it (`Expectation.handler`)."""
    tests = list(test_files(root))
    yield from _expectations_in_files(root, tests, handlers=False)
    known = set(tests)
    code = (path for path in project_modules(root) if path not in known)
    yield from _expectations_in_files(root, code, handlers=True)


def _expectations_in_files(root: Path, paths: Iterable[Path],
                           handlers: bool) -> Iterator[Expectation]:
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        if b"AssertionError" not in data or len(data) > _MAX_FILE_BYTES or (
                handlers and b"except" not in data):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(data, str(path))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        relative = path.relative_to(root).as_posix()
        model: SemanticModel | None = None
        for found in _expectations(tree, relative, handlers_only=handlers):
            if model is None:
                # The project's own module resolves its calls under its package's name.
                name = module_name_for(path) if handlers else None
                model = (SemanticModel(tree, name.name, name.is_package) if name is not None
                         else SemanticModel(tree, path.stem))
            yield _with_entries(found, model)


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


def _expectations(tree: ast.Module, path: str, handlers_only: bool = False
                  ) -> Iterator[tuple[Expectation, list[ast.AST]]]:
    """Each expectation, with what the test runs expecting it: the block's statements, or
    the callable passed to `assertRaises(AssertionError, func, ...)`; with
    `handlers_only` (the project's own code), its `except AssertionError` handlers only."""
    assigned: dict[str, list[ast.expr]] | None = None
    parametrized: dict[int, list[dict[str, ast.expr]]] | None = None
    for node in ast.walk(tree):
        if handlers_only and not (isinstance(node, ast.Try)
                                  or type(node).__name__ == "TryStar"):
            continue
        if isinstance(node, (ast.With, ast.AsyncWith)):
            if assigned is None:
                assigned = _assigned_names(tree)
                parametrized = _parametrized_blocks(tree)
            for item in node.items:
                found = False
                for context in _context_calls(item.context_expr, assigned):
                    expected = _expected_call(context)
                    if expected is not None and isinstance(context, ast.Call):
                        yield (Expectation(path, node.lineno,
                                           _callees(node.body, of_results=True),
                                           expected[1], _other_exceptions(context.args[0])),
                               list(node.body))
                        found = True
                        break
                    rows = _rows_expecting(context, (parametrized or {}).get(id(node), []))
                    if rows:
                        # `@pytest.mark.parametrize("cls,arg,error", [[Pool, "fn",
                        # AssertionError], ...])` / `with pytest.raises(error): cls(...)`:
                        # the rows expecting AssertionError say what the block calls.
                        called = [value for row in rows for value in row.values()
                                  if dotted(value)]
                        yield (Expectation(path, node.lineno,
                                           _callees(node.body) | _callees(called,
                                                                          called_only=False),
                                           None, frozenset()),
                               [*node.body, *(ast.Call(value, [], []) for value in called)])
                        found = True
                        break
                if found:
                    break
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            # try: tp = make_tp(...) / except AssertionError: return None — the test
            # relies on the assert to skip invalid parameters.
            handlers = getattr(node, "handlers", [])
            if any(h.type is not None and _names_assertion_error(h.type) for h in handlers):
                names = _callees(node.body)
                if names:
                    tolerated = frozenset().union(*(
                        _other_exceptions(h.type) if h.type is not None else {"*"}
                        for h in handlers))
                    yield (Expectation(path, node.lineno, names, None, tolerated,
                                       handler=handlers_only), list(node.body))
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            # pytest.raises(AssertionError, func, *args) / self.assertRaises(E, func, ...)
            expected = _expected_call(node)
            if expected is not None and expected[0] == "call":
                callee = node.args[2 if _method(node) == "assertRaisesRegex" else 1]
                names = _callees([callee], called_only=False)
                if names:
                    yield (Expectation(path, node.lineno, names, expected[1],
                                       _other_exceptions(node.args[0])),
                           [ast.Call(callee, [], [])])


def _parametrized_blocks(tree: ast.Module) -> dict[int, list[dict[str, ast.expr]]]:
    """For each `with` block (by id) inside a test function decorated with
    `pytest.mark.parametrize`, the parameter rows of that function: argument name to the
    value a row gives it."""
    found: dict[int, list[dict[str, ast.expr]]] = {}
    for function in ast.walk(tree):
        if not isinstance(function, _FUNCTION_TYPES):
            continue
        rows = [row for decorator in function.decorator_list
                for row in _parameter_rows(decorator)]
        if not rows:
            continue
        for node in ast.walk(function):
            if isinstance(node, (ast.With, ast.AsyncWith)):
                found[id(node)] = rows
    return found


def _parameter_rows(decorator: ast.expr) -> list[dict[str, ast.expr]]:
    """The rows of `@pytest.mark.parametrize("a,b", [(1, 2), ...])`, as dicts."""
    if not isinstance(decorator, ast.Call) or len(decorator.args) < 2 or \
            (dotted(decorator.func) or [""])[-1] != "parametrize":
        return []
    names_node, values = decorator.args[0], decorator.args[1]
    if isinstance(names_node, ast.Constant) and isinstance(names_node.value, str):
        names = [name.strip() for name in names_node.value.split(",") if name.strip()]
    elif isinstance(names_node, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in names_node.elts):
        names = [str(e.value) for e in names_node.elts]  # type: ignore[attr-defined]
    else:
        return []
    if not isinstance(values, (ast.List, ast.Tuple)):
        return []
    rows: list[dict[str, ast.expr]] = []
    for value in values.elts:
        if isinstance(value, ast.Call) and (dotted(value.func) or [""])[-1] == "param":
            elements = list(value.args)  # pytest.param(a, b, marks=...)
        elif len(names) == 1:
            elements = [value]
        elif isinstance(value, (ast.List, ast.Tuple)):
            elements = list(value.elts)
        else:
            continue
        if len(elements) == len(names):
            rows.append(dict(zip(names, elements, strict=True)))
    return rows


def _rows_expecting(context: ast.expr,
                    rows: list[dict[str, ast.expr]]) -> list[dict[str, ast.expr]]:
    """The parameter rows under which `context` (`pytest.raises(error)`, `error` an
    argument of the parametrized test) expects AssertionError."""
    if not rows or not isinstance(context, ast.Call) or not context.args or \
            _method(context) not in _RAISES_FUNCTIONS | _RAISES_METHODS or \
            not isinstance(context.args[0], ast.Name):
        return []
    argument = context.args[0].id
    return [row for row in rows
            if argument in row and _names_assertion_error(row[argument])]


def _assigned_names(tree: ast.Module) -> dict[str, list[ast.expr]]:
    """The values each plain name is assigned in the file (`context = ...`)."""
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            found.setdefault(node.targets[0].id, []).append(node.value)
    return found


def _context_calls(expr: ast.expr, assigned: dict[str, list[ast.expr]],
                   depth: int = 0) -> Iterator[ast.expr]:
    """What a `with` item may enter: the expression, both arms of a conditional
    (`pytest.raises(AssertionError) if bad else nullcontext()`), and what a name it
    reads was assigned (gluonts: `context = (... if ... else pytest.raises(AssertionError))`
    then `with context:`)."""
    if depth > 3:
        return
    if isinstance(expr, ast.IfExp):
        yield from _context_calls(expr.body, assigned, depth + 1)
        yield from _context_calls(expr.orelse, assigned, depth + 1)
    elif isinstance(expr, ast.Name):
        for value in assigned.get(expr.id, []):
            yield from _context_calls(value, assigned, depth + 1)
    else:
        yield expr


def _other_exceptions(expr: ast.expr) -> frozenset[str]:
    """The exceptions besides AssertionError that `expr` (a tuple, or one name) names."""
    elements = expr.elts if isinstance(expr, ast.Tuple) else [expr]
    names = {(dotted(element) or ["?"])[-1] for element in elements}
    return frozenset(names - {"AssertionError"})


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


def _callees(body: list[ast.stmt] | list[ast.expr], called_only: bool = True,
             of_results: bool = False) -> frozenset[str]:
    names: set[str] = set()
    for statement in body:
        for node in ast.walk(statement):
            target = node.func if isinstance(node, ast.Call) else None
            if target is None and not called_only and node is statement:
                target = node  # a function passed by reference
            name = dotted(target) if target is not None else []
            if name:
                names.add(name[-1])
            elif of_results and isinstance(target, ast.Attribute):
                # a method of what a call returns: crypten's `comm.get().set_name(x)`
                # under `assertRaises(AssertionError)` (round 28)
                names.add(target.attr)
    return frozenset(names)


# -- what the expecting block reaches ------------------------------------------------------

# How many calls below the test's own call an assert may sit and still count as expected.
# Three covers the shapes seen in real tests (a constructor -> `self._build_model()` -> a
# config class's `__post_init__` -> its validator) with a hop to spare. Deeper, the call
# graph fans out over most of a library: on the tuning projects depths 4 and 6 only
# added asserts on paths the test does not exercise (a data module's encoder six calls
# below `bagging_predict`), each a fix lost to a test that is not about it.
REACH_DEPTH = 3
# How deep test helpers (functions of the test file) are followed: they cost no depth.
_HELPER_DEPTH = 3
_MAX_ENTRIES = 64
# What calling a class runs.
CONSTRUCTION_METHODS = ("__new__", "__init__", "__post_init__", "__attrs_post_init__")
_FUNCTION_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef)


def _with_entries(found: tuple[Expectation, list[ast.AST]],
                  model: SemanticModel) -> Expectation:
    expectation, body = found
    entries: list[str] = []
    seen: set[str] = set()

    def visit(nodes: list[ast.AST], depth: int) -> None:
        for statement in nodes:
            for node in ast.walk(statement):
                if not isinstance(node, ast.Call) or len(entries) >= _MAX_ENTRIES:
                    continue
                helper = _test_helper(model, node.func, methods=not expectation.handler)
                if helper is not None:  # a function of the test file: its calls count
                    if helper.name not in seen and depth < _HELPER_DEPTH:
                        seen.add(helper.name)
                        visit(list(helper.body), depth + 1)
                    continue
                for target in _call_targets(model, node.func):
                    if target not in entries:
                        entries.append(target)

    visit(body, 0)
    return Expectation(expectation.path, expectation.line, expectation.callees,
                       expectation.pattern, expectation.tolerated, tuple(entries),
                       expectation.handler)


def _test_helper(model: SemanticModel, func: ast.expr, methods: bool = True
                 ) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The module-level def of the test file a call calls by its name, or with `methods`
    the method of the test class a `self.helper(...)` call calls (joeynmt's
    `self._translate(n_best)` under `assertRaises(AssertionError)`, which runs the
    project's `predict`: round 28). The project's own handlers follow `self.method()`
    through the project model instead, which names each call of the chain."""
    if methods and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
            func.value.id == "self":
        cls = model.enclosing_class(func)
        return next((node for node in (cls.body if cls is not None else [])
                     if isinstance(node, _FUNCTION_TYPES) and node.name == func.attr), None)
    if not isinstance(func, ast.Name):
        return None
    binding = model.binding(func)
    if (binding is None or binding.kind is not BindingKind.FUNCTION
            or binding.scope is not model.module_scope):
        return None
    node = binding.node
    return node if isinstance(node, _FUNCTION_TYPES) else None


# What calling an instance runs: `__call__`, for a torch module the `forward` its
# `__call__` (torch's, not the project's) dispatches to, and for a torchmetrics `Metric`
# the `update` and `compute` its `forward` runs (renate's `NFR_metric(new, old, gt)`
# under `pytest.raises(AssertionError)` tests the asserts of `update`: round 27).
INSTANCE_CALL_METHODS = ("__call__", "forward", "update", "compute")


def _call_targets(model: SemanticModel, func: ast.expr) -> list[str]:
    """What a call in the test file runs that the project may define: `_call_target`, and
    for a call of an instance (`FeatureMatchingLoss()(fake, real)`, or `loss(x)` after
    `loss = Loss()`) its class's `__call__` and `forward`."""
    target = _call_target(model, func)
    if target is not None:
        return [target]
    owner = (constructed_name(model, func) if isinstance(func, ast.Call)
             else _instance_class(model, func) if isinstance(func, ast.Name) else None)
    if owner is None or owner.startswith("builtins."):
        return []
    return [f"{owner}.{method}" for method in INSTANCE_CALL_METHODS]


def _call_target(model: SemanticModel, func: ast.expr) -> str | None:
    """What a call in the test file calls, as a qualified name the project may define:
    `Config(...)` -> "pkg.Config", `model.fit(...)` after `model = Model(...)` ->
    "pkg.Model.fit"; None where it is not known."""
    qualified = model.qualified_name(func)
    if qualified is not None:
        return None if qualified.startswith("builtins.") else qualified
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        owner = _instance_class(model, func.value) or _own_class(model, func.value)
        if owner is not None:
            return f"{owner}.{func.attr}"
    return None


def _own_class(model: SemanticModel, name: ast.Name) -> str | None:
    """The class a method's `self` is, for `self.method()` in the project's own code (a
    handler of `except AssertionError` around `self._aggregate_with_group(...)`): the
    top-level class around it, by its qualified name."""
    binding = model.binding(name)
    if binding is None or binding.kind is not BindingKind.PARAMETER or name.id != "self":
        return None
    cls = model.enclosing_class(name)
    if cls is None or not model.module or model.parent(cls) is not model.tree:
        return None
    return f"{model.module}.{cls.name}"


def _instance_class(model: SemanticModel, name: ast.Name) -> str | None:
    """The class a local name holds an instance of: `x = Cls(...)`, `x: Cls`."""
    binding = model.binding(name)
    if binding is None:
        return None
    found: str | None = None
    if binding.kind is BindingKind.ASSIGNMENT and binding.value is not None:
        found = constructed_name(model, binding.value)
    if found is None and binding.annotation is not None:
        found = model.qualified_name(binding.annotation)
    if found is None or found.startswith("builtins."):
        return None
    return found


@dataclass(frozen=True)
class Reached:
    """A function a test's call reaches, and through which calls."""

    expectation: Expectation
    chain: tuple[str, ...]  # "TabularModel.__init__", ...: the calls from the test down


@dataclass
class _Module:
    """A module the reach walk has read: its model and its functions by name."""

    model: SemanticModel
    definitions: dict[tuple[str, ...], ast.FunctionDef | ast.AsyncFunctionDef]


def reach(project: Project, expectations: tuple[Expectation, ...],
          depth: int = REACH_DEPTH) -> dict[str, tuple[Reached, ...]]:
    """Every project function (by qualified name: "pkg.mod.Class.method") that a test's
    expecting block calls, directly or up to `depth` calls below, with the tests that
    reach it. Calls are followed where the project model resolves them: functions and
    classes (a class: its `__new__`, `__init__`, `__post_init__`), imported names across
    modules, `self.method()` and `super().method()` in the class and its project bases,
    `self.x.method()` where the class says what `self.x` is built from, and methods of a
    local `x = Cls(...)`."""
    walker = _Walker(project)
    found: dict[str, list[Reached]] = {}
    for expectation in expectations:
        queue: list[tuple[str, tuple[str, ...]]] = []
        visited: set[str] = set()
        for entry in expectation.entries:
            for key in walker.locate(entry):
                if key not in visited:
                    visited.add(key)
                    queue.append((key, (walker.label(key),)))
        level = 0
        while queue:
            following: list[tuple[str, tuple[str, ...]]] = []
            for key, chain in queue:
                found.setdefault(key, []).append(Reached(expectation, chain))
                if level >= depth:
                    continue
                for callee in walker.callees(key):
                    if callee not in visited:
                        visited.add(callee)
                        following.append((callee, (*chain, walker.label(callee))))
            queue = following
            level += 1
    return {key: tuple(reached) for key, reached in found.items()}


class _Walker:
    """Reads the bodies of project functions (parsed once each) and resolves their calls."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._modules: dict[str, _Module | None] = {}
        self._callees: dict[str, list[str]] = {}

    def label(self, key: str) -> str:
        module, path = self._split(key)
        return ".".join(path) if module is not None else key

    # -- where a name is defined --------------------------------------------------------

    def locate(self, qualified: str, hops: int = 8) -> list[str]:
        """The project functions calling `qualified` runs (a class: its constructors)."""
        parts = qualified.split(".")
        for split in range(len(parts), 0, -1):
            module = self.project.module(".".join(parts[:split]))
            if module is None:
                continue
            rest = parts[split:]
            if not rest:
                return []
            for length in range(len(rest), 0, -1):
                local = ".".join(rest[:length])
                if local in module.classes:
                    remaining = rest[length:]
                    owner = module.classes[local].qualified_name
                    if not remaining:
                        return self._constructors(owner)
                    return self._method(owner, remaining[0]) if len(remaining) == 1 else []
            dotted_rest = ".".join(rest)
            if dotted_rest in module.functions:
                return [f"{module.name}.{dotted_rest}"]
            if hops > 0 and rest[0] in module.names:
                return self.locate(".".join([module.names[rest[0]], *rest[1:]]), hops - 1)
            if hops > 0:
                for star in module.star_imports:
                    located = self.locate(".".join([star, *rest]), hops - 1)
                    if located:
                        return located
            return []
        return []

    def _constructors(self, owner: str) -> list[str]:
        keys = []
        for method in CONSTRUCTION_METHODS:
            keys += self._method(owner, method)
        return keys

    def _method(self, owner: str, method: str, *, skip_own: bool = False) -> list[str]:
        if skip_own:
            for base in self.project.ancestors(owner):
                facts = self.project.class_facts(base) if base is not None else None
                if facts is not None and method in facts.methods:
                    return [f"{facts.qualified_name}.{method}"]
            return []
        found = self.project.find_method(owner, method)
        return [f"{found[0]}.{method}"] if found is not None else []

    def _split(self, key: str) -> tuple[str | None, tuple[str, ...]]:
        parts = key.split(".")
        for split in range(len(parts) - 1, 0, -1):
            name = ".".join(parts[:split])
            if self.project.module_path(name) is not None and self._module(name) is not None:
                return name, tuple(parts[split:])
        return None, tuple(parts)

    def _module(self, name: str) -> _Module | None:
        if name not in self._modules:
            self._modules[name] = self._read(name)
        return self._modules[name]

    def _read(self, name: str) -> _Module | None:
        if self.project.module(name) is None:  # notes the module's digest
            return None
        path = self.project.module_path(name)
        if path is None:
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(path.read_bytes(), str(path))
        except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        definitions: dict[tuple[str, ...], ast.FunctionDef | ast.AsyncFunctionDef] = {}

        def collect(body: list[ast.stmt], prefix: tuple[str, ...]) -> None:
            for statement in body:
                if isinstance(statement, _FUNCTION_TYPES):
                    definitions.setdefault((*prefix, statement.name), statement)
                elif isinstance(statement, ast.ClassDef):
                    collect(statement.body, (*prefix, statement.name))

        collect(tree.body, ())
        return _Module(SemanticModel(tree, name, path.name == "__init__.py"), definitions)

    # -- what a function calls ----------------------------------------------------------

    def callees(self, key: str) -> list[str]:
        if key not in self._callees:
            self._callees[key] = self._find_callees(key)
        return self._callees[key]

    def _find_callees(self, key: str) -> list[str]:
        name, path = self._split(key)
        module = self._module(name) if name is not None else None
        definition = module.definitions.get(path) if module is not None else None
        if module is None or definition is None:
            return []
        model = module.model
        owner = f"{name}.{'.'.join(path[:-1])}" if len(path) > 1 else None
        arguments = definition.args.posonlyargs + definition.args.args
        receiver = arguments[0].arg if owner is not None and arguments else None
        found: list[str] = []
        for node in ast.walk(definition):
            if not isinstance(node, ast.Call):
                continue
            for callee in self._resolve_call(model, node.func, owner, receiver):
                if callee not in found and callee != key:
                    found.append(callee)
        return found

    def _resolve_call(self, model: SemanticModel, func: ast.expr, owner: str | None,
                      receiver: str | None) -> list[str]:
        qualified = model.qualified_name(func)
        if qualified is not None:
            return [] if qualified.startswith("builtins.") else self.locate(qualified)
        if not isinstance(func, ast.Attribute):
            return []
        value = func.value
        if owner is not None and isinstance(value, ast.Name) and value.id == receiver:
            return self._method(owner, func.attr)  # self.method()
        if (owner is not None and isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
                and value.func.id == "super"):
            return self._method(owner, func.attr, skip_own=True)  # super().method()
        if (owner is not None and isinstance(value, ast.Attribute)
                and isinstance(value.value, ast.Name) and value.value.id == receiver):
            keys: list[str] = []
            for built in self._attribute_classes(owner, value.attr):  # self.x.method()
                keys += self._method(built, func.attr)
            return keys
        if isinstance(value, ast.Name):
            instance = _instance_class(model, value)  # x = Cls(...); x.method()
            if instance is not None:
                facts = self.project.class_facts(instance)
                if facts is not None:
                    return self._method(facts.qualified_name, func.attr)
        return []

    def _attribute_classes(self, owner: str, attribute: str) -> list[str]:
        classes: list[str] = []
        for name in [owner, *self.project.ancestors(owner)]:
            facts = self.project.class_facts(name) if name is not None else None
            if facts is None:
                continue
            for built in facts.attributes.get(attribute, ()):
                built_facts = self.project.class_facts(built)
                if built_facts is not None and built_facts.qualified_name not in classes:
                    classes.append(built_facts.qualified_name)
        return classes
