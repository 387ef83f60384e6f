"""atomic-save: make `torch.save` to a path replace the destination atomically."""

from __future__ import annotations

import ast
import enum
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
import libcst.matchers as m
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from torchfix.model.ast_index import nodes_of, per_tree
from torchfix.model.test_code import is_test_path
from torchfix.rewrite.codemod import CodemodSettings, Safety, TorchfixCodemod

HELPER = "_torchfix_atomic_save"
# The helper's docstring says this; it is how a later run knows the helper is its own.
HELPER_MARKER = "Inserted by torchfix (atomic-save)"
HELPER_IMPORTS = ("os", "shutil", "tempfile")

# `{save}` is how this module reaches torch.save (`torch.save`, `th.save`, `save`, ...).
# Lines stay under 80 columns: the helper lands in projects with any line-length rule.
HELPER_TEMPLATE = '''\
def _torchfix_atomic_save(obj, f, *args, **kwargs):
    """torch.save that never leaves a truncated file at a path destination.

    Inserted by torchfix (atomic-save). torch.save writes a path in place,
    so a crash, an OOM kill or a preemption mid-write leaves a truncated
    file, often the only checkpoint. This saves into a temporary folder
    beside the destination, under the same file name (so the bytes are the
    ones torch.save writes), fsyncs the file and renames it over the
    destination: readers see the old file or the complete new one. A new
    file gets its permissions from the umask, as before; a replaced one
    keeps its mode and group. Buffers and open files, and paths that a
    rename cannot replace faithfully (read-only, hard-linked or foreign
    files, devices, folders this process cannot write), are written by
    torch.save in place, exactly as before.
    """
    if not isinstance(f, (str, os.PathLike)):
        return {save}(obj, f, *args, **kwargs)
    path = os.path.realpath(f)  # through symlinks, like torch.save
    folder = os.path.dirname(path)
    name = os.path.basename(os.fspath(f))  # torch.save names the archive after it
    old = os.stat(path) if os.path.exists(path) else None
    same_file_after_rename = old is None or (
        os.path.isfile(path)
        and old.st_nlink == 1
        and os.access(path, os.W_OK)
        and (
            os.name != "posix"
            or old.st_uid == os.geteuid()
            and old.st_gid in (os.getegid(), *os.getgroups())
        )
    )
    if not (same_file_after_rename and os.access(folder, os.W_OK | os.X_OK)):
        return {save}(obj, f, *args, **kwargs)
    tmp_folder = tempfile.mkdtemp(prefix=f".{{name}}.", suffix=".tmp", dir=folder)
    try:
        tmp_path = os.path.join(tmp_folder, name)
        {save}(obj, tmp_path, *args, **kwargs)
        with open(tmp_path, "rb+") as tmp:
            os.fsync(tmp.fileno())  # on disk before the name points at it
        if old is not None:
            os.chmod(tmp_path, old.st_mode & 0o7777)
            if os.name == "posix":
                os.chown(tmp_path, -1, old.st_gid)
        os.replace(tmp_path, path)
    finally:
        shutil.rmtree(tmp_folder, ignore_errors=True)
'''

# Calls that return an open file or an in-memory buffer, by the last part of their name.
FILE_OPENERS = frozenset(
    {"BytesIO", "GzipFile", "NamedTemporaryFile", "SpooledTemporaryFile", "TemporaryFile",
     "fdopen"}
)
# Annotations that say a parameter is a file object, by their last dotted part.
FILE_ANNOTATIONS = frozenset(
    {"BinaryIO", "BufferedIOBase", "BufferedWriter", "BytesIO", "IO", "IOBase", "RawIOBase"}
)
# Words that name a file object or buffer rather than a path.
HANDLE_WORDS = frozenset(
    {"bio", "buf", "buffer", "bytesio", "fh", "fileobj", "fobj", "handle", "stream", "writer"}
)
# Words that name something temporary: a save there is not the checkpoint a crash destroys
# (and is often the first half of a temp-file-and-rename the code already does).
TEMP_WORDS = frozenset(
    {"gettempdir", "mkdtemp", "mkstemp", "temp", "tempdir", "tempfile", "temporary", "tmp",
     "tmpdir", "tmpfile", "tmpname"}
)
# Calls whose result is a temporary folder or file (so are names bound to it).
TEMP_FACTORIES = frozenset(
    {"NamedTemporaryFile", "TemporaryDirectory", "gettempdir", "mkdtemp", "mkstemp"}
)
# Clocks: a save between two reads of one is being measured.
TIMERS = frozenset(
    {"default_timer", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
     "process_time", "process_time_ns", "time", "time_ns"}
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*://")

FunctionPath = tuple[str, ...]  # names of the enclosing classes and functions


class Decision(enum.Enum):
    SAFE = "safe"
    UNSAFE = "unsafe"
    LEAVE = "leave"  # not rewritten and not reported


class AtomicSave(TorchfixCodemod):
    """Save to paths atomically: temp file, fsync, `os.replace`.

    ## What it does
    Rewrites `torch.save(obj, destination, ...)` into
    `_torchfix_atomic_save(obj, destination, ...)` and inserts that small helper once in
    the module, after its docstring and imports. For a path (`str` or `os.PathLike`) the
    helper saves into a temporary folder beside the destination, under the same file
    name, fsyncs the file and `os.replace`s it over the destination; on any error the
    temporary folder is removed and the old destination is untouched. Anything else (a
    `BytesIO`, an open file, a zip member) goes to `torch.save` unchanged.

    ## Why
    `torch.save` writes a path in place. A crash, an OOM kill or a preemption in the
    middle of the write leaves a truncated checkpoint behind, often the only one, and the
    next resume fails (or a cleanup job deletes the older good ones). Writing elsewhere
    and renaming means the destination always holds the old file or the complete new one.

    ## Example
    ```python
    import torch

    def save_checkpoint(model, path):
        torch.save({"model": model.state_dict()}, path)
    ```
    becomes
    ```python
    import torch
    import os
    import shutil
    import tempfile


    def _torchfix_atomic_save(obj, f, *args, **kwargs):
        ...  # 45 lines, with a docstring saying torchfix inserted it and why


    def save_checkpoint(model, path):
        _torchfix_atomic_save({"model": model.state_dict()}, path)
    ```

    ## Why a helper in the module
    The rewritten code must not depend on torchfix, and the temp-file, fsync, permission
    and cleanup steps are too long to repeat at every call. One private function per
    module keeps each call site a one-word change that reads like the original, and a
    reviewer reads the helper once. Its name is distinctive; a module that already binds
    it to something else is left alone (and reported). It reaches torch the way the
    module does (`torch.save`, `th.save`, `from torch import save as torch_save`), and
    `os`, `shutil` and `tempfile` are imported only where missing. The helper's own
    `torch.save` calls are never rewritten, so running torchfix again changes nothing.

    ## What the helper keeps as it was
    - The file's bytes: torch.save names the archive inside the file after the file, so
      the temporary file has the destination's name, in a temporary folder.
    - Permissions: a new file is created by torch.save, so the umask applies exactly as
      before (not `mkstemp`'s 0600); a replaced file keeps its mode and its group, so a
      checkpoint on a shared cluster stays readable by the same people.
    - Behaviour where a rename would not give the same file: a destination that is not a
      regular file (`/dev/null`, a pipe), is read-only, has several hard links, belongs
      to another user or a group this process is not in, or sits in a folder this
      process cannot add files to is written in place by torch.save, exactly as before
      (including its errors). A symlinked destination is written through, as before.
    - `pickle_module`, `pickle_protocol`, `_use_new_zipfile_serialization` and every
      other argument, positional or keyword, pass through to torch.save.

    ## Fix safety
    Safe for calls: destinations that are paths get the promised atomic replace, and any
    other destination reaches torch.save unchanged through the helper's runtime check, so
    a destination that cannot be known statically (`f`, `args.out`) is safe too. The
    costs a reviewer should know: an fsync per save, the old and the new checkpoint both
    on disk while saving, and a process killed mid-save leaves a hidden
    `.<name>.<random>.tmp/` folder beside the destination (never a truncated checkpoint).
    Left alone, because rewriting them would only add noise:
    - destinations that are file objects in this file: `io.BytesIO()`, `open(...)`,
      `zf.open(...)`, `factory.create_writer(...)`, names bound to those or by
      `with ... as f`, parameters annotated `BinaryIO`/`IO[bytes]`, names such as
      `buffer`, `stream`, `fh`, `writer`, and a name that an earlier
      `if isinstance(f, str): ...; return` in the function leaves as a file object;
    - temporary destinations (`tmp_path`, `tempfile.mkdtemp()`, `"/tmp/..."`, paths
      built from those) and saves that are already renamed into place (`os.replace`,
      `os.rename`, `shutil.move`, `Path.replace`/`rename`) in the same function, in a
      function it calls, or in a function of this module that calls it by name
      (`self._save(tmp); self._replace(tmp, path)`): they are atomic already;
    - remote URLs (`"s3://..."`), which torch.save cannot write anyway;
    - test code (`test_*.py`, `*_test.py`, `conftest.py`, files under `test/`, `tests/`,
      `testing/` or `test_utils/` below the folder torchfix runs in): their checkpoints
      live in temporary folders, and tests that mock `torch.save` and check its
      destination would break;
    - a module-level alias `_torch_save = torch.save`: code keeping the original
      function, typically around a monkeypatch, which the helper would recurse into.
    **Unsafe** (applied with `--unsafe-fixes`, otherwise reported): `torch.save` passed
    on as a value (`save_function=torch.save`, `partial(torch.save, ...)`), and calls
    whose destination is hidden in `*args`/`**kwargs`; the code that receives or forwards
    them may rely on the old function itself. So is a save between two clock reads
    (`t0 = time.perf_counter()` before, `time.perf_counter() - t0` after): it is being
    measured, and the fsync and rename change what is measured. A module that reaches
    torch only through imports inside functions, or binds `os`, `shutil` or `tempfile` to
    something else, is reported, not rewritten.
    """

    name = "atomic-save"
    summary = "Make torch.save replace path destinations atomically (temp file, fsync, rename)."
    triggers = (b"save",)
    fix_safety = "safe, unsafe"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {node.lineno for node in _Facts.of(tree).references}

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        super().__init__(context, settings)
        tree = self.settings.python_tree
        self._facts = _Facts.of(tree) if tree is not None else _Facts()
        self._path: list[str] = []  # enclosing class and function names
        self._function_depth = 0
        self._called: set[cst.CSTNode] = set()  # torch.save references that are called
        self._targets: set[cst.CSTNode] = set()  # assignment targets (a monkeypatch)
        self._aliases: set[cst.CSTNode] = set()  # module-level `name = torch.save`
        self._value_names: set[cst.CSTNode] = set()  # bare names where a value is read
        self._rewritten = False
        # Top-level statements that use the helper while the module is imported.
        self._import_time_uses: list[cst.CSTNode] = []

    # -- what the visitor notes on the way down -----------------------------------------

    @classmethod
    def skips_path(cls, path: Path) -> bool:
        return is_test_path(path)  # see the docstring: no value in tests, mocks would break

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._path.append(node.name.value)

    def leave_ClassDef(
        self, original_node: cst.ClassDef, updated_node: cst.ClassDef
    ) -> cst.ClassDef:
        self._path.pop()
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self._path.append(node.name.value)
        self._function_depth += 1
        # The helper's own torch.save calls are what it is made of: never rewrite them.
        return not (len(self._path) == 1 and node.name.value == HELPER)

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.FunctionDef:
        self._function_depth -= 1
        self._path.pop()
        return updated_node

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._function_depth += 1

    def leave_Lambda(self, original_node: cst.Lambda, updated_node: cst.Lambda) -> cst.Lambda:
        self._function_depth -= 1
        return updated_node

    def visit_Call(self, node: cst.Call) -> None:
        if self._is_save(node.func):
            self._called.add(node.func)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._targets.update(target.target for target in node.targets)
        if isinstance(node.value, cst.Name):
            self._value_names.add(node.value)
        if not self._path and len(node.targets) == 1 and isinstance(
            node.targets[0].target, cst.Name
        ):
            self._aliases.add(node.value)

    def visit_Arg(self, node: cst.Arg) -> None:
        if isinstance(node.value, cst.Name):
            self._value_names.add(node.value)

    def visit_Param(self, node: cst.Param) -> None:
        if isinstance(node.default, cst.Name):
            self._value_names.add(node.default)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._targets.add(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._targets.add(node.target)

    # -- the rewrite ---------------------------------------------------------------------

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if original_node.func not in self._called:
            return updated_node
        decision, reason = self._call_decision(original_node)
        return self._rewrite(
            original_node, updated_node, updated_node.with_changes(func=cst.Name(HELPER)),
            decision, CALL_MESSAGE + reason,
        )

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        return self._value_reference(original_node, updated_node)

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        return self._value_reference(original_node, updated_node)

    def _value_reference(
        self, original_node: cst.Attribute | cst.Name, updated_node: cst.BaseExpression
    ) -> cst.BaseExpression:
        if (
            original_node in self._called
            or original_node in self._targets
            or not self._is_save(original_node, values_only=True)
        ):
            return updated_node
        if original_node in self._aliases or self._facts.renames_in(self._path):
            return updated_node  # keeps the original function, or already renames into place
        return self._rewrite(
            original_node, updated_node, cst.Name(HELPER), Decision.UNSAFE, VALUE_MESSAGE
        )

    def _rewrite(
        self,
        original: cst.CSTNode,
        updated: cst.BaseExpression,
        replacement: cst.BaseExpression,
        decision: Decision,
        message: str,
    ) -> cst.BaseExpression:
        if decision is Decision.LEAVE:
            return updated
        blocker = self._facts.blocker()
        if blocker is not None:
            self.report(original, f"{message}; not rewritten: {blocker}")
            return updated
        safety = Safety.SAFE if decision is Decision.SAFE else Safety.UNSAFE
        return self.fix(original, updated, replacement, message, safety,
                        on_apply=self._note_rewrite)

    def _note_rewrite(self) -> None:
        self._rewritten = True
        # Only the missing ones: AddImportsVisitor walks the whole module, which costs
        # as much as parsing it.
        for module in HELPER_IMPORTS:
            if module not in self._facts.module_imports:
                AddImportsVisitor.add_needed_import(self.context, module)
        if self._function_depth == 0 and self._statements:
            # Runs at import time, so the helper must be defined before this statement.
            self._import_time_uses.append(self._statements[0])

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self._rewritten or self._facts.helper is HelperState.PRESENT:
            return updated_node
        save = self._facts.module_save_expression
        if save is None:  # blocker() made every change a report
            return updated_node
        uses = {id(statement) for statement in self._import_time_uses}
        limit = next(
            (i for i, statement in enumerate(original_node.body) if id(statement) in uses),
            len(original_node.body),
        )
        index = insertion_index(original_node.body, limit)
        return insert_helper(updated_node, index, helper_definition(updated_node, save))

    # -- what a reference is -------------------------------------------------------------

    def _is_save(self, node: cst.BaseExpression, *, values_only: bool = False) -> bool:
        if isinstance(node, cst.Attribute):
            return (
                node.attr.value == "save"
                and isinstance(node.value, cst.Name)
                and node.value.value in self._facts.torch_modules
            )
        if isinstance(node, cst.Name):
            # Bare names are only matched as callees or where a value is clearly read; a
            # `Name` node is also a keyword, an attribute, a definition's name...
            return node.value in self._facts.save_names and (
                not values_only or node in self._value_names
            )
        return False

    def _call_decision(self, call: cst.Call) -> tuple[Decision, str]:
        if self._facts.renames_in(self._path):
            return Decision.LEAVE, ""
        destination, hidden = _destination(call.args)
        if destination is None:
            if hidden:
                return Decision.UNSAFE, " (the destination is hidden in *args/**kwargs)"
            return Decision.LEAVE, ""  # not a valid torch.save call: not ours to judge
        line = self.position(call).start.line
        if (
            self._is_file_object(destination, line)
            or self._is_temporary(destination)
            or _is_url(destination)
        ):
            return Decision.LEAVE, ""
        if self._facts.is_timed(line):
            return Decision.UNSAFE, " (the save is timed: the fsync and rename change what " \
                                    "is measured)"
        return Decision.SAFE, ""

    def _is_file_object(self, node: cst.BaseExpression, line: int) -> bool:
        if isinstance(node, cst.Call):
            name = get_full_name_for_node(node.func) or ""
            return _opens_file(name) or bool(  # open(...), zf.open(...), create_writer(...)
                set(identifier_words(name.rsplit(".", 1)[-1])) & HANDLE_WORDS
            )
        if isinstance(node, cst.Name):
            return (
                bool(set(identifier_words(node.value)) & HANDLE_WORDS)
                or self._facts.name_kind(self._path, node.value) is NameKind.FILE
                or self._facts.not_a_path(self._path, node.value, line)
            )
        if isinstance(node, cst.Attribute):
            return bool(set(identifier_words(node.attr.value)) & HANDLE_WORDS)
        return False

    def _is_temporary(self, node: cst.BaseExpression) -> bool:
        for name in _identifiers(node):
            if set(identifier_words(name)) & TEMP_WORDS:
                return True
            if self._facts.name_kind(self._path, name) is NameKind.TEMPORARY:
                return True
        return any(
            text.startswith(("/tmp/", "/var/tmp/")) for text in _string_prefixes(node)
        )


CALL_MESSAGE = (
    "torch.save writes in place, so a crash mid-write leaves a truncated file; save to a "
    "temporary file and rename it over the destination"
)
VALUE_MESSAGE = (
    "torch.save passed on as a value writes in place wherever it is called; pass the "
    "atomic helper instead"
)


# -- call arguments -----------------------------------------------------------------------


def _destination(args: Sequence[cst.Arg]) -> tuple[cst.BaseExpression | None, bool]:
    """torch.save's `f` argument, and whether star arguments may hide it."""
    hidden = False
    positional = 0
    for arg in args:
        if arg.star:
            hidden = True
            continue
        if arg.keyword is not None:
            if arg.keyword.value == "f":
                return arg.value, False
            continue
        if hidden:
            return None, True  # after *args its position is unknown
        positional += 1
        if positional == 2:
            return arg.value, False
    return None, hidden


def _opens_file(name: str | None) -> bool:
    if not name:
        return False
    last = name.rsplit(".", 1)[-1]
    return last in FILE_OPENERS or last.endswith("open")  # open, gzip.open, zf.open, ...


def _identifiers(node: cst.CSTNode) -> Iterator[str]:
    """Every name and attribute name in an expression (`self.tmp_dir / name`: all three)."""
    if isinstance(node, cst.Name):
        yield node.value
    for child in node.children:
        yield from _identifiers(child)


def _string_prefixes(node: cst.CSTNode) -> Iterator[str]:
    """The literal text at the start of each string in an expression."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        if isinstance(value, str):
            yield value
    elif isinstance(node, cst.FormattedString):
        first = node.parts[0] if node.parts else None
        if isinstance(first, cst.FormattedStringText):
            yield first.value
    for child in node.children:
        yield from _string_prefixes(child)


def _is_url(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return isinstance(value, str) and bool(_URL.match(value))
    if isinstance(node, cst.FormattedString):
        first = node.parts[0] if node.parts else None
        return isinstance(first, cst.FormattedStringText) and bool(_URL.match(first.value))
    if isinstance(node, cst.ConcatenatedString):
        return _is_url(node.left)
    return False


def identifier_words(identifier: str) -> list[str]:
    """`tmpCkpt_path` → ["tmp", "ckpt", "path"]."""
    return [word.lower() for part in identifier.split("_") for word in _WORD.findall(part)]


# -- the helper ---------------------------------------------------------------------------


def helper_definition(module: cst.Module, save: str) -> cst.FunctionDef:
    """The helper, indented the way this module indents, reaching torch.save as `save`."""
    indent = module.default_indent
    lines = []
    for line in HELPER_TEMPLATE.format(save=save).splitlines():
        stripped = line.lstrip(" ")
        lines.append(indent * ((len(line) - len(stripped)) // 4) + stripped)
    code = module.default_newline.join(lines) + module.default_newline
    statement = cst.parse_statement(code, config=module.config_for_parsing)
    if not isinstance(statement, cst.FunctionDef):  # pragma: no cover - the template is one
        raise TypeError("the helper template is not a function definition")
    return statement


def insertion_index(body: Sequence[cst.BaseStatement], limit: int) -> int:
    """Where the helper goes: after the docstring and the imports that come before any
    function, class or statement that needs the helper at import time."""
    index = 0
    for position, statement in enumerate(body[:limit]):
        if _is_import_block(statement) or (position == 0 and _is_docstring(statement)):
            index = position + 1
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            break
    return index


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return m.matches(
        statement,
        m.SimpleStatementLine(body=[m.Expr(value=m.SimpleString() | m.ConcatenatedString())]),
    )


def _is_import_block(statement: cst.CSTNode) -> bool:
    """An import, or an `if`/`try` whose branches import (`try: import x except ...`)."""
    if isinstance(statement, cst.SimpleStatementLine):
        return all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)
    if isinstance(statement, (cst.If, cst.Try)):
        return any(_has_import(child) for child in statement.children)
    return False


def _has_import(node: cst.CSTNode) -> bool:
    if isinstance(node, (cst.Import, cst.ImportFrom)):
        return True
    if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.BaseExpression)):
        return False
    return any(_has_import(child) for child in node.children)


def insert_helper(module: cst.Module, index: int, helper: cst.FunctionDef) -> cst.Module:
    """Insert the helper before `module.body[index]`, two blank lines on either side."""
    body = list(module.body)
    blank = cst.EmptyLine()
    helper = helper.with_changes(leading_lines=[blank, blank] if index > 0 else [])
    if index < len(body):
        following = body[index]
        lines = list(following.leading_lines)
        leading_blanks = next(
            (i for i, line in enumerate(lines) if line.comment is not None), len(lines)
        )
        if leading_blanks < 2:
            lines[:0] = [blank] * (2 - leading_blanks)
            body[index] = following.with_changes(leading_lines=lines)
    body.insert(index, helper)
    return module.with_changes(body=body)


# -- what the file itself says (read from CPython's parse) --------------------------------


class HelperState(enum.Enum):
    ABSENT = "absent"
    PRESENT = "present"  # our helper, from an earlier run
    TAKEN = "taken"  # the name is bound to something else


class NameKind(enum.Enum):
    FILE = "file"  # an open file or buffer
    TEMPORARY = "temporary"  # a temporary folder or file
    OTHER = "other"


@dataclass
class _Scope:
    renames: bool = False  # calls os.replace / os.rename / shutil.move / Path.replace ...
    calls: set[str] = field(default_factory=set)  # names of the functions it calls
    names: dict[str, set[NameKind]] = field(default_factory=dict)
    # name → the line after which it is known not to be a path: `if isinstance(f, str):
    # ...; return` at the top of the function leaves only file objects below.
    not_paths_after: dict[str, int] = field(default_factory=dict)

    def bind(self, name: str, kind: NameKind) -> None:
        self.names.setdefault(name, set()).add(kind)


@dataclass
class _Facts:
    torch_modules: set[str] = field(default_factory=set)  # names bound to the torch module
    save_names: set[str] = field(default_factory=set)  # names bound to torch.save alone
    module_save_expression: str | None = None  # how module-level code reaches torch.save
    helper: HelperState = HelperState.ABSENT
    clashes: set[str] = field(default_factory=set)  # os/shutil/tempfile bound otherwise
    module_imports: set[str] = field(default_factory=set)  # `import x` at module level
    scopes: dict[FunctionPath, _Scope] = field(default_factory=dict)
    references: list[ast.expr] = field(default_factory=list)  # torch.save, outside the helper
    # Lines of simple statements between two timer reads: a save being measured.
    timed_spans: list[tuple[int, int]] = field(default_factory=list)

    @staticmethod
    @per_tree
    def of(tree: ast.Module) -> _Facts:
        facts = _Facts()
        if _may_reference_torch_save(tree):  # "save" is in most files; torch.save is not
            _FactCollector(facts).collect(tree)
        return facts

    def blocker(self) -> str | None:
        """Why the helper cannot be added to this file, if it cannot."""
        if self.helper is HelperState.TAKEN:
            return f"the name {HELPER} is already used in this module"
        if self.module_save_expression is None:
            return "torch is imported only inside functions here, so a helper at module level " \
                   "cannot reach it"
        if self.clashes:
            names = " and ".join(f"`{name}`" for name in sorted(self.clashes))
            return f"the helper imports {names}, which this module binds to something else"
        return None

    def renames_in(self, path: Sequence[str]) -> bool:
        """Whether the code around `path` already renames its output into place.

        True if the function (or one around it) renames, directly or through a function
        of this module it calls, or if a function that calls it by name does: the
        `self._save(tmp); self._replace(tmp, path)` split of timm's CheckpointSaver.
        """
        # Enclosing functions count (a nested writer); module-level code only for itself.
        depths = range(len(path), 0, -1) if path else (0,)
        if any(self._renames_via_calls(tuple(path[:depth])) for depth in depths):
            return True
        return bool(path) and any(
            path[-1] in scope.calls and self._renames_via_calls(caller)
            for caller, scope in self.scopes.items()
        )

    def _renames_via_calls(self, path: FunctionPath) -> bool:
        scope = self._scope(path)
        return scope.renames or any(
            other.renames for other_path, other in self.scopes.items()
            if other_path and other_path[-1] in scope.calls
        )

    def is_timed(self, line: int) -> bool:
        return any(first <= line <= last for first, last in self.timed_spans)

    def not_a_path(self, path: Sequence[str], name: str, line: int) -> bool:
        guard = self._scope(tuple(path)).not_paths_after.get(name)
        return guard is not None and guard < line

    def name_kind(self, path: Sequence[str], name: str) -> NameKind | None:
        """What the innermost scope binding `name` says it is; None if unbound or mixed."""
        for depth in range(len(path), -1, -1):
            kinds = self._scope(tuple(path[:depth])).names.get(name)
            if kinds:
                return next(iter(kinds)) if len(kinds) == 1 else None
        return None

    def _scope(self, path: FunctionPath) -> _Scope:
        return self.scopes.get(path) or _Scope()


def _may_reference_torch_save(tree: ast.Module) -> bool:
    return any(
        node.attr == "save" and isinstance(node.value, ast.Name)
        for node in nodes_of(tree, ast.Attribute)
    ) or any(
        node.module in ("torch", "torch.serialization")
        and any(alias.name == "save" for alias in node.names)
        for node in nodes_of(tree, ast.ImportFrom)
    )


class _FactCollector(ast.NodeVisitor):
    def __init__(self, facts: _Facts) -> None:
        self.facts = facts
        self._path: list[str] = []
        self._depth = 0  # functions and classes around the node
        self._save_candidates: set[str] = set()
        self._other_bindings: dict[str, int] = {}
        self._module_torch: list[str] = []
        self._module_save: list[str] = []
        self._in_helper = False

    def collect(self, tree: ast.Module) -> None:
        self.visit(tree)
        facts = self.facts
        facts.save_names = {
            name for name in self._save_candidates if name not in self._other_bindings
        }
        module_saves = [name for name in self._module_save if name in facts.save_names]
        if "torch" in self._module_torch:
            facts.module_save_expression = "torch.save"
        elif self._module_torch:
            facts.module_save_expression = f"{self._module_torch[0]}.save"
        elif module_saves:
            facts.module_save_expression = module_saves[0]
        if facts.helper is not HelperState.PRESENT and HELPER in self._other_bindings:
            facts.helper = HelperState.TAKEN
        facts.references = [
            node for node in facts.references
            if not isinstance(node, ast.Name) or node.id in facts.save_names
        ]

    @property
    def _scope(self) -> _Scope:
        return self.facts.scopes.setdefault(tuple(self._path), _Scope())

    # bindings

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            bound = alias.asname or alias.name.split(".")[0]
            if alias.name == "torch" or (alias.asname is None and bound == "torch"):
                self.facts.torch_modules.add(bound)
                if self._depth == 0:
                    self._module_torch.append(bound)
            else:
                self._bind_other(bound, module=bound if alias.asname is None else alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            bound = alias.asname or alias.name
            if node.module in ("torch", "torch.serialization") and alias.name == "save":
                self._save_candidates.add(bound)
                if self._depth == 0:
                    self._module_save.append(bound)
            else:
                self._bind_other(bound)

    def _bind_other(self, name: str, module: str | None = None) -> None:
        self._other_bindings[name] = self._other_bindings.get(name, 0) + 1
        if self._depth == 0 and name in HELPER_IMPORTS:
            if module == name:
                self.facts.module_imports.add(name)
            else:
                self.facts.clashes.add(name)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if (
            self._depth == 0
            and node.name == HELPER
            and HELPER_MARKER in (ast.get_docstring(node) or "")
        ):
            self.facts.helper = HelperState.PRESENT
            return  # its own torch.save calls are not references to rewrite
        self._bind_other(node.name)
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._visit_defaults(node.args)
        self._path.append(node.name)
        self._depth += 1
        arguments = node.args
        for param in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                      *filter(None, (arguments.vararg, arguments.kwarg))]:
            self._bind_other(param.arg)
            if param.annotation is not None and _is_file_annotation(param.annotation):
                self._scope.bind(param.arg, NameKind.FILE)
        self._note_timed(node.body)
        for statement in node.body:
            guarded = _path_guard(statement)
            if guarded is not None:
                self._scope.not_paths_after.setdefault(guarded, statement.end_lineno or 0)
            self.visit(statement)
        self._depth -= 1
        self._path.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def generic_visit(self, node: ast.AST) -> None:
        for name in ("body", "orelse", "finalbody"):
            statements = getattr(node, name, None)
            if isinstance(statements, list):
                self._note_timed(statements)
        super().generic_visit(node)

    def _note_timed(self, statements: list[ast.stmt]) -> None:
        for before, statement, after in zip(
            statements, statements[1:], statements[2:], strict=False
        ):
            if (
                isinstance(statement, (ast.Expr, ast.Assign, ast.Return))
                and _reads_timer(before)
                and _reads_timer(after)
            ):
                self.facts.timed_spans.append((statement.lineno, statement.end_lineno or 0))

    def _visit_defaults(self, arguments: ast.arguments) -> None:
        for default in [*arguments.defaults, *filter(None, arguments.kw_defaults)]:
            self.visit(default)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._bind_other(node.name)
        for expression in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(expression)
        self._path.append(node.name)
        self._depth += 1
        self._note_timed(node.body)
        for statement in node.body:
            self.visit(statement)
        self._depth -= 1
        self._path.pop()

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._note_target(target, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._note_target(node.target, node.value)
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self._note_target(node.target, node.value)
        self.generic_visit(node)

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            if item.optional_vars is not None:
                self._note_target(item.optional_vars, item.context_expr)
        self.generic_visit(node)

    visit_AsyncWith = visit_With

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self._note_target(node.target, None)
        self.generic_visit(node)

    visit_AsyncFor = visit_For

    def _note_target(self, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            self._bind_other(target.id)
            self._scope.bind(target.id, self._value_kind(value))
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._note_target(element, None)

    def _value_kind(self, value: ast.expr | None) -> NameKind:
        if value is None:
            return NameKind.OTHER
        if isinstance(value, ast.Call):
            name = _dotted(value.func)
            if name.rsplit(".", 1)[-1] in TEMP_FACTORIES:
                return NameKind.TEMPORARY
            if _opens_file(name):
                return NameKind.FILE
        # A path built from a temporary folder is temporary: os.path.join(tmp_dir, "x.pt")
        names = {node.id for node in ast.walk(value) if isinstance(node, ast.Name)}
        if any(
            set(identifier_words(name)) & TEMP_WORDS
            or self.facts.name_kind(self._path, name) is NameKind.TEMPORARY
            for name in names
        ):
            return NameKind.TEMPORARY
        return NameKind.OTHER

    # uses

    def visit_Call(self, node: ast.Call) -> None:
        if _renames_into_place(node):
            self._scope.renames = True
        if isinstance(node.func, (ast.Name, ast.Attribute)):
            self._scope.calls.add(
                node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            )
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if (
            node.attr == "save"
            and isinstance(node.value, ast.Name)
            and node.value.id in self.facts.torch_modules
        ):
            self.facts.references.append(node)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id in self._save_candidates:
            self.facts.references.append(node)  # filtered once every binding is known




def _path_guard(statement: ast.stmt) -> str | None:
    """`f` for `if isinstance(f, str): ...; return` (so below it, `f` is a file object)."""
    if not (
        isinstance(statement, ast.If)
        and not statement.orelse
        and _always_leaves(statement.body)
        and isinstance(statement.test, ast.Call)
        and _dotted(statement.test.func) == "isinstance"
        and len(statement.test.args) == 2
        and isinstance(statement.test.args[0], ast.Name)
    ):
        return None
    types = {_dotted(node) for node in ast.walk(statement.test.args[1])}
    if types & {"str", "os.PathLike", "PathLike", "Path", "pathlib.Path"}:
        return statement.test.args[0].id
    return None


def _always_leaves(statements: list[ast.stmt]) -> bool:
    """Whether running these statements always ends in `return` or `raise`."""
    last = statements[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return _always_leaves(last.body)
    if isinstance(last, ast.If):
        return bool(last.orelse) and _always_leaves(last.body) and _always_leaves(last.orelse)
    return False


def _reads_timer(statement: ast.stmt) -> bool:
    return any(
        isinstance(node, ast.Call)
        and _dotted(node.func).rsplit(".", 1)[-1] in TIMERS
        for node in ast.walk(statement)
    )


def _is_file_annotation(annotation: ast.expr) -> bool:
    if isinstance(annotation, ast.Subscript):
        return _is_file_annotation(annotation.value)  # IO[bytes], Optional[BinaryIO]...
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            return _is_file_annotation(ast.parse(annotation.value, mode="eval").body)
        except SyntaxError:
            return False
    return _dotted(annotation).rsplit(".", 1)[-1] in FILE_ANNOTATIONS


def _renames_into_place(call: ast.Call) -> bool:
    """`os.replace(a, b)`, `os.rename`, `shutil.move`, `Path.replace(b)`, `fs.rename(a, b)`.

    `str.replace` takes two arguments and `DataFrame.rename` keywords, so a method named
    `replace` counts with exactly one positional argument and `rename` with one or two.
    """
    name = _dotted(call.func)
    if name in ("os.replace", "os.rename", "shutil.move"):
        return True
    if not isinstance(call.func, ast.Attribute) or call.keywords:
        return False
    count = len(call.args)
    attr = call.func.attr
    return (
        (attr == "replace" and count == 1)
        or (attr == "rename" and count in (1, 2))
        or (attr in ("move", "mv") and count == 2)
    )


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""
