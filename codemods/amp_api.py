"""amp-api: move `torch.cuda.amp` and `torch.cpu.amp` to `torch.amp`, naming the device.

Everything is decided on CPython's `ast` of the file (scopes, bindings, how each name is
used, which code is an old-torch fallback), which is far cheaper than libcst's scope
metadata; libcst then visits only the statements that hold a deprecated name and edits the
nodes the plan names. Plan and tree meet on keys both parsers agree on: the kind of node,
its first line, its dotted text and its rank among such nodes on that line.
"""

from __future__ import annotations

import ast
import enum
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.helpers import get_full_name_for_node

from torchfix.model.ast_index import walk
from torchfix.model.ast_names import dotted_name
from torchfix.rewrite.codemod import CodemodSettings, Option, Safety, TorchfixCodemod
from torchfix.rewrite.edits import as_keyword, insert_argument, keyword, prepend_argument

NodeT = TypeVar("NodeT", bound=cst.CSTNode)
BlockT = TypeVar("BlockT", cst.Module, cst.IndentedBlock)

# The deprecated namespaces and the device each one stands for.
DEPRECATED_MODULES = {"torch.cuda.amp": "cuda", "torch.cpu.amp": "cpu"}
# `from torch.cuda import amp` binds the deprecated module too.
DEVICE_PACKAGES = {"torch.cuda": "cuda", "torch.cpu": "cpu"}
# What torch.amp offers in their place (torch.cpu.amp never had custom_fwd/custom_bwd).
MIGRATABLE = {
    "cuda": ("autocast", "GradScaler", "custom_fwd", "custom_bwd"),
    "cpu": ("autocast", "GradScaler"),
}
# The oldest torch whose torch.amp has each name in the form this codemod writes
# (torch.amp.autocast is older than 2.0, but 2.0 is the oldest release we vouch for).
SINCE = {"autocast": (2, 0), "GradScaler": (2, 3), "custom_fwd": (2, 4), "custom_bwd": (2, 4)}
# torch.cuda.amp.autocast(enabled, dtype, cache_enabled) may take these positionally; the
# torch.amp signature is (device_type, dtype, enabled, cache_enabled), so they become keywords.
AUTOCAST_POSITIONAL = ("enabled", "dtype", "cache_enabled")
# The keyword under which each new API takes its device.
DEVICE_KEYWORD = {
    "autocast": "device_type", "GradScaler": "device",
    "custom_fwd": "device_type", "custom_bwd": "device_type",
}
# A string first argument naming one of these means the call already passes a device.
DEVICE_NAMES = frozenset(
    {"cpu", "cuda", "hpu", "ipu", "maia", "meta", "mps", "mtia", "npu", "privateuseone",
     "xla", "xpu"}
)
CLASS_CHECKS = frozenset({"isinstance", "issubclass"})

# Where the plan meets the libcst tree: (node kind, first line, dotted text, rank on line).
Key = tuple[str, int, str, int]
CALL, DECORATOR, ATTRIBUTE, NAME, IMPORT_FROM, ALIAS, IMPORT = (
    "call", "decorator", "attribute", "name", "import-from", "alias", "import"
)


class Use(enum.Enum):
    CALL = "call"  # autocast(...), GradScaler(...), custom_fwd(...)
    DECORATOR = "decorator"  # @custom_fwd
    ANNOTATION = "annotation"  # scaler: GradScaler
    CLASS_CHECK = "class check"  # isinstance(scaler, GradScaler)
    VALUE = "value"  # anything else: the object escapes, so no device can be added


class Kind(enum.Enum):
    NAME = "name"  # from torch.cuda.amp import autocast [as x]
    MODULE = "module"  # import torch.cuda.amp as amp / from torch.cuda import amp
    QUALIFIED = "qualified"  # torch.cuda.amp.autocast, reached through `import torch`
    PLAIN_IMPORT = "plain import"  # import torch.cuda.amp, once nothing needs it


@dataclass(eq=False)
class Reference:
    """One place that names a deprecated object, and how it is used there."""

    node: ast.expr  # the expression naming the object
    target: str  # its name in torch.cuda.amp / torch.cpu.amp
    use: Use = Use.VALUE
    in_string: bool = False  # inside a string annotation: nothing to edit
    problem: str | None = None  # why this use cannot be migrated automatically


@dataclass(eq=False)
class Unit:
    """What migrates together: an imported name or module with all its references, or
    one qualified reference. Either every edit of a unit is applied or none is."""

    kind: Kind
    device: str
    references: list[Reference] = field(default_factory=list)
    statement: ast.Import | ast.ImportFrom | None = None
    alias: ast.alias | None = None
    problems: list[tuple[ast.AST, str]] = field(default_factory=list)  # "": stay silent
    fallback: bool = False  # the old spelling is a deliberate fallback for old torch
    bound_elsewhere: bool = False  # the name has other bindings in its scope
    unsafe_reason: str | None = None
    applies: bool = False  # decided before the rewrite starts

    @property
    def old_module(self) -> str:
        return f"torch.{self.device}.amp"

    @property
    def bound_name(self) -> str:
        assert self.alias is not None
        return self.alias.asname or self.alias.name

    @property
    def safety(self) -> Safety:
        return Safety.UNSAFE if self.unsafe_reason else Safety.SAFE


@dataclass(frozen=True)
class Edit:
    """A planned change of one libcst node."""

    unit: Unit
    target: str = ""  # the deprecated name a call or decorator uses
    shorten: bool = False  # `torch.cuda.amp.X` → `torch.amp.X`
    new_module: str = ""  # for an import alias: "torch.amp", "torch", or "" to drop it
    split: tuple[Unit, ...] = ()  # for a from-import: the units that move (rest stays)


class AmpApi(TorchfixCodemod):
    """Replace the deprecated `torch.cuda.amp` / `torch.cpu.amp` APIs with `torch.amp`.

    ## What it does
    Rewrites every import and use of `torch.cuda.amp.autocast`, `GradScaler`,
    `custom_fwd` and `custom_bwd` (and of `torch.cpu.amp.autocast` and `GradScaler`)
    into the device-generic `torch.amp` API, passing the device the old name implied.

    `autocast(...)` becomes `autocast("cuda", ...)`. Positional arguments of the old
    signature `(enabled, dtype, cache_enabled)` become keywords, because the new one is
    `(device_type, dtype, enabled, cache_enabled)`: `autocast(use_amp)` becomes
    `autocast("cuda", enabled=use_amp)`. `GradScaler(...)` becomes
    `GradScaler("cuda", ...)`. `@custom_fwd` becomes `@custom_fwd(device_type="cuda")`,
    `@custom_fwd(cast_inputs=x)` becomes `@custom_fwd(device_type="cuda", cast_inputs=x)`,
    and likewise for `custom_bwd`. Type annotations and `isinstance` checks name
    `torch.amp.GradScaler`.

    Imports change where they stand: `from torch.cuda.amp import autocast` becomes
    `from torch.amp import autocast`, `from torch.cuda import amp` becomes
    `from torch import amp`, `import torch.cuda.amp as amp` becomes
    `import torch.amp as amp`; an import that also names something that stays is split
    in two. An `import torch.cuda.amp` that nothing needs any more is removed, or becomes
    `import torch` when nothing else imports torch.

    ## Why
    Since torch 2.4 each of these emits a `FutureWarning` on every call, in every
    training run, and the APIs are on their way out. The replacements take the device
    explicitly, which is also what lets the same training code run on other devices.

    ## Example
    ```python
    from torch.cuda.amp import GradScaler, autocast

    scaler = GradScaler(enabled=use_amp)
    with autocast(use_amp):
        loss = model(batch)
    ```
    becomes
    ```python
    from torch.amp import GradScaler, autocast

    scaler = GradScaler("cuda", enabled=use_amp)
    with autocast("cuda", enabled=use_amp):
        loss = model(batch)
    ```

    ## Fix safety
    The old APIs are thin wrappers that call the new ones with the device filled in, so
    the fix is **safe**, with one nuance: `torch.cuda.amp.autocast()` always meant
    float16 (`torch.cpu.amp.autocast()` bfloat16) and `cache_enabled=True`, while
    `torch.amp.autocast("cuda")` without them takes the current autocast settings. The
    two differ only inside an enclosing autocast region of the same device with another
    dtype (or cache setting), or after `torch.set_autocast_dtype`.

    The rewritten code needs **torch >= 2.4** (`torch.amp.custom_fwd`/`custom_bwd`
    with `device_type` are new in 2.4, `torch.amp.GradScaler` in 2.3; `torch.amp.autocast`
    is in every 2.x). Set the `min-torch` option to the oldest torch your code supports:
    names whose replacement is newer are then reported instead of rewritten.

    An `isinstance`/`issubclass` check against the old `GradScaler` class becomes a check
    against `torch.amp.GradScaler`, which also accepts scalers of other devices; so that
    fix, and every other fix of the same class in the file (checks and constructions must
    move together), is **unsafe**. Checks elsewhere (another file, a library) against
    `torch.cuda.amp.GradScaler` reject the new `torch.amp.GradScaler("cuda")` objects:
    review them.

    Reported and left alone: a deprecated name used as a value (`ctx = autocast if amp
    else nullcontext`, `partial(autocast, ...)`, a base class), because the device cannot
    be added where it is finally called; `autocast(*args)`; a call that already passes a
    device (it fails with the old API); a star import; a name also bound to something
    else in its scope; a name imported but not used in the file, or listed in `__all__`
    (modules importing it from this one call it without a device); a module alias that
    is also used for something torch.amp lacks. Left alone silently: code that already
    chooses between the two APIs (`torch.amp` in another branch of the same `if`,
    conditional expression or `try`, e.g. a torch-version check: the old spelling there
    is a deliberate fallback for old torch; a branch that picks a *device* instead, like
    `elif device_type == "cuda":`, is migrated), and names torch.amp has no equivalent for
    (`amp_definitely_not_available`, the `autocast_mode`/`grad_scaler` submodules).

    """

    name = "amp-api"
    summary = "Move deprecated torch.cuda.amp / torch.cpu.amp APIs to torch.amp with the device."
    triggers = (b"cuda.amp", b"cpu.amp", b"torch.cuda import", b"torch.cpu import")
    fix_safety = "safe, unsafe"
    reads_whole_file = True  # the quote style of the file's strings, for the device strings
    options = (
        Option("min-torch", "2.4", "Oldest torch the code supports; replacements that need "
                                   "a newer one are reported instead of applied.",
               check=lambda value: parse_version(str(value))),
    )

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        lines: set[int] = set()
        bound: set[str] = set()
        name_lines: dict[str, list[int]] = {}
        for node in walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = _deprecated_bindings(node)
                if names is not None:
                    lines.add(node.lineno)
                    bound.update(names)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in DEPRECATED_MODULES:
                        lines.add(node.lineno)
                        if alias.asname:
                            bound.add(alias.asname)
            elif isinstance(node, ast.Attribute):
                if _is_device_amp(node):
                    lines.add(node.lineno)
            elif isinstance(node, ast.Name):
                name_lines.setdefault(node.id, []).append(node.lineno)
        if lines:
            for name in bound:
                lines.update(name_lines.get(name, ()))
        return lines

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        super().__init__(context, settings)
        self._min_torch = (0, 0)  # read in visit_Module, where a bad value fails one file
        self._quote = '"'
        self._edits: dict[Key, Edit] = {}
        self._reports: dict[Key, list[str]] = {}
        self._texts: dict[str, set[str]] = {}  # node kind → dotted texts worth keying
        self._pending: set[Key] = set()  # edits of applied units not made yet
        self._ranks: Counter[tuple[str, int, str]] = Counter()
        self._found: dict[tuple[str, cst.CSTNode], tuple[Key, Edit]] = {}  # nodes to edit
        self._not_expressions: set[cst.Name] = set()  # Names ast has no Name node for
        self._import_depth = 0
        self._added_lines: dict[cst.ImportFrom, cst.SimpleStatementLine] = {}
        self._orphaned_lines: list[cst.EmptyLine] = []  # from a removed import line
        self._orphan_depth = -1

    # -- planning --------------------------------------------------------------------

    def visit_Module(self, node: cst.Module) -> None:
        # The configuration already rejected a malformed value (Option.check).
        self._min_torch = parse_version(str(self.option("min-torch")))
        tree = self.settings.python_tree
        if tree is None:
            return  # CPython cannot parse the file: no facts, no changes
        analysis = _Analysis(tree)
        planner = _Planner(self, analysis)
        planner.plan()
        self._quote = _file_quote(node)

    def add_edit(self, key: Key, edit: Edit) -> None:
        self._edits[key] = edit
        self._texts.setdefault(key[0], set()).add(key[2])
        if edit.unit.applies or any(unit.applies for unit in edit.split):
            self._pending.add(key)

    def planned_edit(self, key: Key) -> Edit | None:
        return self._edits.get(key)

    def add_report(self, key: Key, message: str) -> None:
        self._reports.setdefault(key, []).append(message)
        self._texts.setdefault(key[0], set()).add(key[2])

    def suppressed(self, nodes: Iterable[ast.AST]) -> bool:
        suppressions = self.settings.suppressions
        return bool(suppressions) and any(
            suppressions.suppresses(self.name, node.lineno, node.end_lineno or node.lineno)
            for node in nodes
        )

    def applies(self, safety: Safety) -> bool:
        return safety is Safety.SAFE or self.settings.unsafe_fixes

    @property
    def min_torch(self) -> tuple[int, int]:
        return self._min_torch

    # -- finding the planned nodes ----------------------------------------------------

    def _key(self, kind: str, node: cst.CSTNode, text: str | None) -> None:
        """Rank the node among its kind and text on its line; note it if planned."""
        if text is None or text not in self._texts.get(kind, ()):
            return
        line = self.position(node).start.line
        rank = self._ranks[(kind, line, text)]
        self._ranks[(kind, line, text)] += 1
        key = (kind, line, text, rank)
        for message in self._reports.pop(key, ()):
            self.report(node, message)
        edit = self._edits.get(key)
        if edit is not None:
            self._found[(kind, node)] = (key, edit)

    def visit_Call(self, node: cst.Call) -> None:
        self._key(CALL, node, get_full_name_for_node(node.func))

    def visit_Decorator(self, node: cst.Decorator) -> None:
        if not isinstance(node.decorator, cst.Call):
            self._key(DECORATOR, node.decorator, get_full_name_for_node(node.decorator))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._not_expressions.add(node.attr)
        if not self._import_depth:
            self._key(ATTRIBUTE, node, get_full_name_for_node(node))

    def visit_Name(self, node: cst.Name) -> None:
        if not self._import_depth and node not in self._not_expressions:
            self._key(NAME, node, node.value)

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._not_expressions.add(node.keyword)

    def visit_Param(self, node: cst.Param) -> None:
        self._not_expressions.add(node.name)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._not_expressions.add(node.name)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._not_expressions.add(node.name)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None and isinstance(node.name.name, cst.Name):
            self._not_expressions.add(node.name.name)

    def visit_NameItem(self, node: cst.NameItem) -> None:
        self._not_expressions.add(node.name)  # global / nonlocal

    def visit_Import(self, node: cst.Import) -> None:
        self._import_depth += 1
        names = node.names
        self._key(IMPORT, node, get_full_name_for_node(names[0].name) if names else None)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._import_depth += 1
        module = get_full_name_for_node(node.module) if node.module and not node.relative else None
        self._key(IMPORT_FROM, node, module)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        self._key(ALIAS, node, get_full_name_for_node(node.name))

    # -- the rewrite -------------------------------------------------------------------

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> object:
        depth = len(self._statements)
        result = super().on_leave(original_node, updated_node)
        if (
            self._orphaned_lines
            and depth == self._orphan_depth
            and isinstance(result, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
        ):
            # The statement after a removed import keeps the lines that were above it.
            lines, self._orphaned_lines = self._orphaned_lines, []
            result = result.with_changes(leading_lines=[*lines, *result.leading_lines])
        return result

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        found = self._found.get((CALL, original_node))
        if found is None:
            return updated_node
        key, edit = found
        unit = edit.unit
        replacement = _with_device(updated_node, edit.target, unit.device, self._quote)
        if edit.shorten:
            replacement = replacement.with_changes(func=_shortened(replacement.func))
        return self._fix(key, unit, original_node, updated_node, replacement,
                         _call_message(unit, edit.target))

    def leave_Decorator(
        self, original_node: cst.Decorator, updated_node: cst.Decorator
    ) -> cst.Decorator:
        found = self._found.get((DECORATOR, original_node.decorator))
        if found is None:
            return updated_node
        key, edit = found
        name = updated_node.decorator
        if edit.shorten:
            name = _shortened(name)
        device = keyword("device_type", _string(edit.unit.device, self._quote))
        replacement = updated_node.with_changes(decorator=cst.Call(func=name, args=[device]))
        return self._fix(key, edit.unit, original_node, updated_node, replacement,
                         _call_message(edit.unit, edit.target))

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        found = self._found.get((ATTRIBUTE, original_node))
        if found is None:
            return updated_node
        key, edit = found
        unit = edit.unit
        message = f"{unit.old_module}.{edit.target} is deprecated: use torch.amp.{edit.target}"
        return self._fix(key, unit, original_node, updated_node, _shortened(updated_node),
                         message)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        self._import_depth -= 1
        found = self._found.get((IMPORT_FROM, original_node))
        if found is None:
            return updated_node
        key, edit = found
        moving = [unit for unit in edit.split if unit.applies]
        waiting = [unit for unit in edit.split if not unit.applies]
        if waiting:  # unsafe without --unsafe-fixes: recorded, not applied
            self._fix(key, _merged(waiting), original_node, updated_node, updated_node,
                      _import_message(waiting))
        if not moving:
            return updated_node
        assert not isinstance(updated_node.names, cst.ImportStar)
        if len(moving) == len(updated_node.names):
            replacement = updated_node.with_changes(module=_new_module(updated_node.module))
            return self._fix(key, _merged(moving), original_node, updated_node, replacement,
                             _import_message(moving))
        moved, kept = _partition_names(updated_node, moving)
        new_import = updated_node.with_changes(
            module=_new_module(updated_node.module), names=_one_line(moved),
            lpar=None, rpar=None,
        )

        def add_line() -> None:
            self._added_lines[original_node] = cst.SimpleStatementLine(body=[new_import])

        return self._fix(key, _merged(moving), original_node, updated_node,
                         _kept_import(updated_node, kept), _import_message(moving),
                         on_apply=add_line)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        # Aliases are edited here, not one by one: libcst rejects an import whose last
        # name keeps a comma, as it would for a moment after the last alias is removed.
        self._import_depth -= 1
        names: list[cst.ImportAlias] = []
        for original_alias, alias in zip(original_node.names, updated_node.names, strict=True):
            found = self._found.get((ALIAS, original_alias))
            if found is None:
                names.append(alias)
                continue
            key, edit = found
            old = get_full_name_for_node(original_alias.name)
            if not edit.new_module:
                replacement: cst.ImportAlias | cst.RemovalSentinel = cst.RemovalSentinel.REMOVE
                message = f"remove `import {old}`: nothing uses it after the move to torch.amp"
            else:
                replacement = alias.with_changes(name=_dotted_cst(edit.new_module))
                message = (
                    f"`import torch` replaces `import {old}`, which nothing uses after the "
                    "move to torch.amp" if edit.unit.kind is Kind.PLAIN_IMPORT
                    else f"import torch.amp instead of the deprecated {old}"
                )
            result = self._fix(key, edit.unit, original_alias, alias, replacement, message)
            if isinstance(result, cst.ImportAlias):
                names.append(result)
        if len(names) == len(updated_node.names):
            return updated_node.with_changes(names=names)
        if isinstance(names[-1].comma, cst.Comma):
            names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(names=names)

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        first = original_node.body[0] if original_node.body else None
        found = self._found.get((IMPORT, first)) if isinstance(first, cst.Import) else None
        if found is not None:
            return self._remove_line(found, original_node, updated_node)
        added = self._added_lines.pop(first, None) if isinstance(first, cst.ImportFrom) else None
        if added is not None:
            return cst.FlattenSentinel([updated_node, added])
        return updated_node

    def _remove_line(
        self, found: tuple[Key, Edit], original_node: cst.SimpleStatementLine,
        updated_node: cst.SimpleStatementLine,
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        key, edit = found
        depth = len(self._statements)

        def keep_leading_lines() -> None:
            # Blank lines and comments above the import stay, above the next statement.
            self._orphaned_lines = list(updated_node.leading_lines)
            self._orphan_depth = depth

        return self._fix(
            key, edit.unit, original_node, updated_node, cst.RemovalSentinel.REMOVE,
            f"remove `import {key[2]}`: nothing uses it after the move to torch.amp",
            on_apply=keep_leading_lines,
        )

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        return self._orphans_to_footer(updated_node)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        updated_node = self._orphans_to_footer(updated_node)
        for key, messages in sorted(self._reports.items()):
            for message in messages:  # its node was not found: report it on the module
                self.report(original_node, f"line {key[1]}: {message}")
        self._reports.clear()
        if self._pending:
            # A half-migrated unit (an import moved, a call left without its device) would
            # break the file: fail it instead, which leaves it unchanged.
            raise RuntimeError(
                f"{len(self._pending)} planned edit(s) were not found in the tree, e.g. "
                f"{sorted(self._pending)[0]}; file left as is"
            )
        return updated_node

    def _orphans_to_footer(self, node: BlockT) -> BlockT:
        # The removed import was the last statement of this block: keep its comments.
        if self._orphaned_lines and self._orphan_depth == len(self._statements) + 1:
            lines, self._orphaned_lines = self._orphaned_lines, []
            comments = [line for line in lines if line.comment is not None]
            if comments:
                return node.with_changes(footer=[*comments, *node.footer])
        return node

    def _fix(
        self, key: Key, unit: Unit, original: cst.CSTNode, updated: NodeT, replacement: object,
        message: str, on_apply: Callable[[], None] | None = None,
    ) -> NodeT:
        if unit.unsafe_reason:
            message += f" (unsafe: {unit.unsafe_reason})"
        if not unit.applies:
            replacement = updated  # recorded as a finding only
        result = self.fix(original, updated, replacement, message, unit.safety, on_apply)
        if unit.applies:
            self._pending.discard(key)
        return result  # type: ignore[no-any-return]


# -- facts from CPython's ast ------------------------------------------------------------


@dataclass(eq=False)
class _Scope:
    kind: str  # "module", "function", "class" or "comprehension"
    parent: _Scope | None
    bindings: dict[str, list[ast.AST]] = field(default_factory=dict)  # of watched names
    declared_global: set[str] = field(default_factory=set)
    declared_nonlocal: set[str] = field(default_factory=set)


@dataclass(eq=False)
class _Load:
    """A watched name being read, and the scope it is read in."""

    node: ast.Name
    scope: _Scope
    in_string: bool = False  # found by parsing a string annotation


class _Analysis:
    """Scopes and bindings of the names that matter, from one walk over the ast."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.parents: dict[int, ast.AST] = {}
        self.module_scope = _Scope("module", None)
        self.imports: list[tuple[ast.Import | ast.ImportFrom, _Scope]] = []
        self.loads: list[_Load] = []
        self.exported: set[str] = _exported_names(tree)
        self.binding_import: dict[int, ast.Import | ast.ImportFrom] = {}  # alias → import
        self._watched = _watched_names(tree)
        self._walk()
        self._holding_amp: set[int] | None = None

    # walking

    def _walk(self) -> None:
        stack: list[tuple[ast.AST, _Scope]] = [(self.tree, self.module_scope)]
        while stack:
            node, scope = stack.pop()
            self._note(node, scope)
            for child, child_scope, parent in self._children(node, scope):
                self.parents[id(child)] = parent
                stack.append((child, child_scope))

    def _children(
        self, node: ast.AST, scope: _Scope
    ) -> Iterator[tuple[ast.AST, _Scope, ast.AST]]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inner = _Scope("function", scope)
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            every += [arg for arg in (arguments.vararg, arguments.kwarg) if arg is not None]
            for default in [*arguments.defaults, *arguments.kw_defaults]:
                if default is not None:
                    yield default, scope, arguments
            for arg in every:
                yield arg, inner, arguments
                if arg.annotation is not None:
                    yield arg.annotation, scope, arg  # annotations run where the def is
            self.parents[id(arguments)] = node
            if isinstance(node, ast.Lambda):
                yield node.body, inner, node
                return
            for decorator in node.decorator_list:
                yield decorator, scope, node
            if node.returns is not None:
                yield node.returns, scope, node
            for statement in node.body:
                yield statement, inner, node
        elif isinstance(node, ast.ClassDef):
            for outer in [*node.decorator_list, *node.bases, *node.keywords]:
                yield outer, scope, node
            inner = _Scope("class", scope)
            for statement in node.body:
                yield statement, inner, node
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = _Scope("comprehension", scope)
            for index, generator in enumerate(node.generators):
                self.parents[id(generator)] = node
                yield generator.iter, scope if index == 0 else inner, generator
                yield generator.target, inner, generator
                for condition in generator.ifs:
                    yield condition, inner, generator
            elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for element in elements:
                yield element, inner, node
        elif isinstance(node, ast.arg):
            return  # its annotation was given to the enclosing scope above
        else:
            for child in ast.iter_child_nodes(node):
                yield child, scope, node

    def _note(self, node: ast.AST, scope: _Scope) -> None:
        if isinstance(node, ast.Name):
            if node.id in self._watched:
                if isinstance(node.ctx, ast.Load):
                    self.loads.append(_Load(node, scope))
                else:
                    _bind(scope, node.id, node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            self.imports.append((node, scope))
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                self.binding_import[id(alias)] = node
                if bound in self._watched and alias.name != "*":
                    _bind(scope, bound, alias)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name in self._watched:
                _bind(scope, node.name, node)
        elif isinstance(node, ast.arg):
            if node.arg in self._watched:
                _bind(scope, node.arg, node)
            self._note_string_annotation(node.annotation, scope.parent or scope, node)
        elif isinstance(node, ast.AnnAssign):
            self._note_string_annotation(node.annotation, scope, node)
        elif isinstance(node, ast.ExceptHandler):
            if node.name in self._watched:
                _bind(scope, node.name, node)
        elif isinstance(node, ast.Global):
            scope.declared_global.update(node.names)
        elif isinstance(node, ast.Nonlocal):
            scope.declared_nonlocal.update(node.names)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._note_string_annotation(node.returns, scope, node)

    def _note_string_annotation(
        self, annotation: ast.expr | None, scope: _Scope, owner: ast.AST
    ) -> None:
        """`scaler: "GradScaler"`: the names in the string are read too."""
        if not (isinstance(annotation, ast.Constant) and isinstance(annotation.value, str)):
            return
        try:
            parsed = ast.parse(annotation.value, mode="eval")
        except SyntaxError:
            return
        for node in ast.walk(parsed):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
            if isinstance(node, ast.Name) and node.id in self._watched:
                self.loads.append(_Load(node, scope, in_string=True))
        self.parents[id(parsed)] = annotation
        self.parents[id(annotation)] = owner

    # questions

    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.parents.get(id(node))

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        current = self.parent(node)
        while current is not None:
            yield current
            current = self.parent(current)

    def binding_scope(self, name: str, scope: _Scope) -> _Scope | None:
        """The scope whose binding of `name` a read in `scope` sees (Python's rules)."""
        if name in scope.declared_global:
            return self.module_scope if name in self.module_scope.bindings else None
        current: _Scope | None = scope
        first = True
        while current is not None:
            skip = (current.kind == "class" and not first) or name in current.declared_nonlocal
            if not skip and name in current.bindings:
                return current
            first = False
            current = current.parent
        return None

    def torch_names(self, name: str, scope: _Scope) -> bool:
        """Whether `name`, read in `scope`, can only be the torch package."""
        bound = self.binding_scope(name, scope)
        if bound is None:
            return False
        bindings = bound.bindings[name]
        return all(
            isinstance(binding, ast.alias)
            and isinstance(self.binding_import.get(id(binding)), ast.Import)
            and (binding.name == "torch" if binding.asname
                 else binding.name.split(".")[0] == "torch")
            for binding in bindings
        )

    def in_fallback(self, node: ast.AST) -> bool:
        """Whether another branch of an enclosing if / conditional expression / try (or
        its condition) uses torch.amp: the old spelling here then serves old torch."""
        holding = self._amp_holders()
        child = node
        for parent in self.ancestors(node):
            if isinstance(parent, (ast.If, ast.IfExp)):
                branches = [[parent.test], _as_list(parent.body), _as_list(parent.orelse)]
                if _other_branch_holds(branches, child, holding) and not _is_device_dispatch(
                    parent.test
                ):
                    return True
            elif isinstance(parent, (ast.Try, *_TRY_STAR)):
                branches = [parent.body, parent.handlers, parent.orelse,  # type: ignore[attr-defined]
                            parent.finalbody]  # type: ignore[attr-defined]
                if _other_branch_holds(branches, child, holding):
                    return True
            child = parent
        return False

    def _amp_holders(self) -> set[int]:
        """The ast nodes that contain a use of torch.amp (and their ancestors)."""
        if self._holding_amp is not None:
            return self._holding_amp
        mentions: list[ast.AST] = []
        for statement, _ in self.imports:
            if _imports_torch_amp(statement):
                mentions.append(statement)
        for load in self.loads:
            if load.in_string:
                continue
            parent = self.parent(load.node)
            if (
                isinstance(parent, ast.Attribute)
                and parent.attr in ("amp", "autocast")
                and self.torch_names(load.node.id, load.scope)
            ) or self._binds_torch_amp(load):
                mentions.append(load.node)
        holding: set[int] = set()
        for mention in mentions:
            holding.add(id(mention))
            for ancestor in self.ancestors(mention):
                if id(ancestor) in holding:
                    break
                holding.add(id(ancestor))
        self._holding_amp = holding
        return holding

    def _binds_torch_amp(self, load: _Load) -> bool:
        bound = self.binding_scope(load.node.id, load.scope)
        return bound is not None and any(
            self.is_torch_amp_binding(binding) for binding in bound.bindings[load.node.id]
        )

    def is_torch_amp_binding(self, binding: ast.AST) -> bool:
        statement = self.binding_import.get(id(binding))
        if not isinstance(binding, ast.alias) or statement is None:
            return False
        if isinstance(statement, ast.ImportFrom):
            return statement.level == 0 and _is_torch_amp_import(
                statement.module or "", binding.name)
        return binding.asname is not None and _is_torch_amp(binding.name)


_TRY_STAR: tuple[type, ...] = (ast.TryStar,) if hasattr(ast, "TryStar") else ()


def _bind(scope: _Scope, name: str, node: ast.AST) -> None:
    scope.bindings.setdefault(name, []).append(node)


def _as_list(value: ast.AST | list[ast.stmt]) -> list[ast.AST]:
    return list(value) if isinstance(value, list) else [value]


def _other_branch_holds(
    branches: Sequence[Sequence[ast.AST]], child: ast.AST, holding: set[int]
) -> bool:
    return any(
        id(node) in holding
        for branch in branches
        if not any(node is child for node in branch)
        for node in branch
    )


def _watched_names(tree: ast.Module) -> set[str]:
    """The names whose bindings and reads matter: what the deprecated imports bind, what
    binds torch, what binds torch.amp names, and what could rebind any of them."""
    watched: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.ImportFrom):
            names = _deprecated_bindings(node)
            if names:
                watched.update(names)
            if node.level == 0 and not any(alias.name == "*" for alias in node.names):
                watched.update(
                    alias.asname or alias.name for alias in node.names
                    if _is_torch_amp_import(node.module or "", alias.name)
                )
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "torch" or alias.name.startswith("torch."):
                    watched.add(alias.asname or "torch")
    return watched


def _exported_names(tree: ast.Module) -> set[str]:
    exported: set[str] = set()
    for statement in tree.body:
        value = None
        if (isinstance(statement, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in statement.targets
        )) or (
            isinstance(statement, (ast.AugAssign, ast.AnnAssign))
            and isinstance(statement.target, ast.Name)
            and statement.target.id == "__all__"
        ):
            value = statement.value
        if isinstance(value, (ast.List, ast.Tuple)):
            exported.update(
                element.value for element in value.elts
                if isinstance(element, ast.Constant) and isinstance(element.value, str)
            )
    return exported


# -- the plan ----------------------------------------------------------------------------


class _Planner:
    """Turn the facts into units, judge them, and hand the codemod keyed edits/reports."""

    def __init__(self, codemod: AmpApi, analysis: _Analysis) -> None:
        self.codemod = codemod
        self.analysis = analysis

    def plan(self) -> None:
        units = [*self._import_units(), *self._qualified_units()]
        _couple_class_checks(units)
        for unit in units:
            self._judge(unit)
        self._decide(units)
        keys = _Keys(self.analysis.tree, self._nodes_to_key(units))
        for unit in units:
            self._plan_unit(unit, keys)
        self._plan_plain_imports(units, keys)

    # units

    def _import_units(self) -> Iterator[Unit]:
        for statement, scope in self.analysis.imports:
            if isinstance(statement, ast.ImportFrom):
                if statement.level or statement.module is None:
                    continue
                module = statement.module
                if module in DEPRECATED_MODULES:
                    if any(alias.name == "*" for alias in statement.names):
                        star = Unit(Kind.NAME, DEPRECATED_MODULES[module], statement=statement)
                        star.problems.append((statement, (
                            f"star import from the deprecated {module}: import autocast, "
                            "GradScaler, ... from torch.amp by name"
                        )))
                        yield star
                        continue
                    for alias in statement.names:
                        yield self._bound_unit(
                            Kind.NAME, DEPRECATED_MODULES[module], statement, alias, scope)
                elif module in DEVICE_PACKAGES:
                    for alias in statement.names:
                        if alias.name == "amp":
                            yield self._bound_unit(
                                Kind.MODULE, DEVICE_PACKAGES[module], statement, alias, scope)
            else:
                for alias in statement.names:
                    if alias.name in DEPRECATED_MODULES and alias.asname is not None:
                        yield self._bound_unit(
                            Kind.MODULE, DEPRECATED_MODULES[alias.name], statement, alias, scope)

    def _bound_unit(
        self, kind: Kind, device: str, statement: ast.Import | ast.ImportFrom,
        alias: ast.alias, scope: _Scope,
    ) -> Unit:
        """An imported name or module with every read that sees this import."""
        unit = Unit(kind, device, statement=statement, alias=alias)
        bound = unit.bound_name
        others = [b for b in scope.bindings.get(bound, []) if b is not alias]
        if others:
            unit.bound_elsewhere = True
            if any(self.analysis.is_torch_amp_binding(other) for other in others):
                unit.fallback = True  # try: from torch.amp import X / except: from torch.cuda.amp
            else:
                line = min(getattr(other, "lineno", 0) for other in others) or None
                where = f" (line {line})" if line else ""
                deprecated = kind is Kind.MODULE or alias.name in MIGRATABLE[device]
                unit.problems.append((alias, (
                    f"`{bound}` is also bound to something else in this scope{where}: "
                    "migrate it to torch.amp by hand"
                ) if deprecated else ""))
            return unit
        for load in self.analysis.loads:
            if load.node.id == bound and self.analysis.binding_scope(bound, load.scope) is scope:
                unit.references.append(self._bound_reference(unit, load))
        return unit

    def _bound_reference(self, unit: Unit, load: _Load) -> Reference:
        node = load.node
        if unit.kind is Kind.NAME:
            assert unit.alias is not None
            reference = Reference(node, unit.alias.name, in_string=load.in_string)
        else:
            parent = self.analysis.parent(node)
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                return Reference(node, "", problem=(
                    f"`{unit.bound_name}` ({unit.old_module}) is used as a value here, so it "
                    "must stay bound to the deprecated module: migrate its uses by hand"
                ))
            reference = Reference(parent, parent.attr, in_string=load.in_string)
        return self._classified(reference, unit)

    def _qualified_units(self) -> Iterator[Unit]:
        for load in self.analysis.loads:
            if load.in_string:
                continue
            inner = self.analysis.parent(load.node)
            module_part = self.analysis.parent(inner) if inner is not None else None
            reference = self.analysis.parent(module_part) if module_part is not None else None
            if not (
                isinstance(inner, ast.Attribute) and inner.attr in ("cuda", "cpu")
                and isinstance(module_part, ast.Attribute) and _is_device_amp(module_part)
                and isinstance(reference, ast.Attribute) and reference.value is module_part
                and self.analysis.torch_names(load.node.id, load.scope)
            ):
                continue
            unit = Unit(Kind.QUALIFIED, inner.attr)
            unit.references.append(self._classified(Reference(reference, reference.attr), unit))
            yield unit

    # judging

    def _classified(self, reference: Reference, unit: Unit) -> Reference:
        """How the reference is used, and whether that use can be migrated."""
        node = reference.node
        parent = self.analysis.parent(node)
        if reference.in_string:
            reference.use = Use.ANNOTATION
        elif isinstance(parent, ast.Call) and parent.func is node:
            reference.use = Use.CALL
        elif isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and any(
            decorator is node for decorator in parent.decorator_list
        ):
            reference.use = Use.DECORATOR
        elif self._in_annotation(node):
            reference.use = Use.ANNOTATION
        elif self._in_class_check(node):
            reference.use = Use.CLASS_CHECK
        if reference.target not in MIGRATABLE[unit.device]:
            return reference  # torch.amp has no such name: judged with its unit
        old = f"{unit.old_module}.{reference.target}"
        if reference.use is Use.CALL:
            assert isinstance(parent, ast.Call)
            reference.problem = _call_problem(parent, reference.target, old)
        elif reference.use is Use.DECORATOR and reference.target not in (
            "custom_fwd", "custom_bwd"
        ):
            reference.use = Use.VALUE
        if reference.use is Use.VALUE:
            subclassed = isinstance(parent, ast.ClassDef) and any(
                base is node for base in parent.bases
            )
            reference.problem = (
                f"{old} is subclassed here; torch.amp.{reference.target} takes the device as "
                "its first argument, so the subclass must pass it: migrate it by hand"
                if subclassed
                else f"{old} is used as a value here, so the device cannot be added where "
                f"it is called: migrate it to torch.amp.{reference.target} by hand"
            )
        return reference

    def _in_annotation(self, node: ast.AST) -> bool:
        child = node
        for parent in self.analysis.ancestors(node):
            if isinstance(parent, (ast.arg, ast.AnnAssign)):
                return parent.annotation is child
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return parent.returns is child
            if isinstance(parent, (ast.Call, ast.Lambda, ast.stmt)):
                return False
            child = parent
        return False

    def _in_class_check(self, node: ast.AST) -> bool:
        parent = self.analysis.parent(node)
        argument: ast.AST = node
        if isinstance(parent, ast.Tuple):  # isinstance(x, (GradScaler, ShardedGradScaler))
            argument, parent = parent, self.analysis.parent(parent)
        return (
            isinstance(parent, ast.Call)
            and isinstance(parent.func, ast.Name)
            and parent.func.id in CLASS_CHECKS
            and len(parent.args) == 2
            and not parent.keywords
            and parent.args[1] is argument
        )

    def _judge(self, unit: Unit) -> None:
        """Note what stops a unit from migrating, and whether it is an old-torch fallback."""
        anchors: list[ast.AST] = [unit.statement] if unit.statement is not None else []
        anchors += [reference.node for reference in unit.references if not reference.in_string]
        if unit.fallback or any(self.analysis.in_fallback(node) for node in anchors):
            unit.fallback = True
            return
        if unit.bound_elsewhere or (unit.alias is None and unit.kind is not Kind.QUALIFIED):
            return  # already reported (a rebound name, a star import)
        deprecated = [r for r in unit.references if r.target in MIGRATABLE[unit.device]]
        if unit.kind is Kind.MODULE and not deprecated:
            # Nothing deprecated goes through this module alias (importing the module
            # alone does not warn): no reason to touch or report it.
            unit.problems.append((unit.statement, ""))  # type: ignore[arg-type]
            return
        for reference in unit.references:
            if reference.problem:
                anchor = unit.alias if reference.in_string else reference.node
                unit.problems.append((anchor, reference.problem))  # type: ignore[arg-type]
            elif reference.target not in MIGRATABLE[unit.device]:
                # A module alias also used for a name torch.amp lacks has to stay, and its
                # deprecated uses with it: say so only if there are any.
                unit.problems.append((reference.node, (
                    f"`{unit.bound_name}` is also used for {unit.old_module}."
                    f"{reference.target}, which torch.amp lacks: migrate its other uses "
                    "by hand"
                ) if unit.kind is Kind.MODULE else ""))
        if unit.kind is Kind.QUALIFIED:
            reference = unit.references[0]
            self._check_min_torch(unit, reference.node, [reference.target])
            return
        assert unit.alias is not None
        if unit.kind is Kind.NAME and unit.alias.name not in MIGRATABLE[unit.device]:
            unit.problems.append((unit.alias, ""))  # amp_definitely_not_available & co
            return
        if not unit.references or unit.bound_name in self.analysis.exported:
            what = "not used in this file" if not unit.references else "listed in __all__"
            unit.problems.append((unit.alias, (
                f"`{unit.bound_name}` comes from the deprecated {unit.old_module} and is "
                f"{what}: modules that import it from here call it without a device, so "
                "migrate them together by hand"
            )))
        targets = (
            [unit.alias.name] if unit.kind is Kind.NAME
            else sorted({reference.target for reference in deprecated})
        )
        self._check_min_torch(unit, unit.alias, targets)

    def _check_min_torch(self, unit: Unit, node: ast.AST, targets: Iterable[str]) -> None:
        minimum = self.codemod.min_torch
        for target in targets:
            since = SINCE.get(target)
            if since is not None and since > minimum:
                unit.problems.append((node, (
                    f"{unit.old_module}.{target} is deprecated, but torch.amp.{target} needs "
                    f"torch >= {since[0]}.{since[1]} (min-torch is {minimum[0]}.{minimum[1]}): "
                    "keep it, or choose by torch version by hand"
                )))

    def _decide(self, units: Sequence[Unit]) -> None:
        """Which units apply in this run; a from-import that only partly moves is split."""
        for unit in units:
            if unit.fallback or unit.problems:
                continue
            if self.codemod.suppressed(self._edit_nodes(unit)):
                unit.problems.append((unit.statement or unit.references[0].node, ""))
                continue
            unit.applies = self.codemod.applies(unit.safety)
        statements: dict[int, list[Unit]] = {}
        for unit in units:
            if isinstance(unit.statement, ast.ImportFrom):
                statements.setdefault(id(unit.statement), []).append(unit)
        for statement_units in statements.values():
            statement = statement_units[0].statement
            assert isinstance(statement, ast.ImportFrom)
            moving = [unit for unit in statement_units if unit.applies]
            if not moving or len(moving) == len(statement.names) or self._splittable(statement):
                continue
            for unit in moving:  # `x = 1; from torch.cuda.amp import ...` cannot be split
                unit.applies = False
                unit.problems.append((statement, (
                    "this import mixes names that move to torch.amp with names that stay: "
                    "split it by hand"
                )))

    def _splittable(self, statement: ast.ImportFrom) -> bool:
        """Only an import that is the one statement on its line(s) can become two lines."""
        siblings = self._siblings(statement)
        return siblings is not None and self._alone_on_its_lines(statement, siblings)

    def _siblings(self, statement: ast.stmt) -> list[ast.stmt] | None:
        """The statement list (body, else, finally...) that holds the statement."""
        parent = self.analysis.parent(statement)
        for name in ("body", "orelse", "finalbody"):
            siblings = getattr(parent, name, None)
            if isinstance(siblings, list) and any(s is statement for s in siblings):
                return siblings
        return None

    def _edit_nodes(self, unit: Unit) -> list[ast.AST]:
        return [node for _, node in self._edits_of(unit)]

    def _edits_of(self, unit: Unit) -> list[tuple[str, ast.AST]]:
        """The nodes a unit changes, with the kind of key each is found by."""
        nodes: list[tuple[str, ast.AST]] = []
        if isinstance(unit.statement, ast.ImportFrom):
            nodes.append((IMPORT_FROM, unit.statement))
        elif unit.statement is not None and unit.alias is not None:
            nodes.append((ALIAS, unit.alias))
        for reference in unit.references:
            if reference.in_string:
                continue
            if reference.use is Use.CALL:
                call = self.analysis.parent(reference.node)
                assert call is not None
                nodes.append((CALL, call))
            elif reference.use is Use.DECORATOR:
                nodes.append((DECORATOR, reference.node))
            elif unit.kind is Kind.QUALIFIED:
                nodes.append((ATTRIBUTE, reference.node))  # `torch.cuda.amp.X` is shortened
        return nodes

    # keys

    def _nodes_to_key(self, units: Sequence[Unit]) -> list[tuple[str, ast.AST]]:
        wanted: list[tuple[str, ast.AST]] = []
        for unit in units:
            if unit.fallback:
                continue
            for node, message in unit.problems:
                if message:
                    wanted.append((_key_kind(node), node))
            if not unit.problems:
                wanted += self._edits_of(unit)
        for statement, _ in self.analysis.imports:
            if isinstance(statement, ast.Import):
                wanted.append((IMPORT, statement))
                wanted += [(ALIAS, alias) for alias in statement.names]
        return wanted

    def _plan_unit(self, unit: Unit, keys: _Keys) -> None:
        if unit.fallback:
            return
        for node, message in unit.problems:
            if message:
                self.codemod.add_report(keys.of(node), message)
        if unit.problems:
            return
        if isinstance(unit.statement, ast.ImportFrom):
            key = keys.of(unit.statement)
            edit = self.codemod.planned_edit(key)
            split = (*edit.split, unit) if edit is not None else (unit,)
            self.codemod.add_edit(key, Edit(unit, split=split))
        elif isinstance(unit.statement, ast.Import) and unit.alias is not None:
            self.codemod.add_edit(keys.of(unit.alias), Edit(unit, new_module="torch.amp"))
        for reference in unit.references:
            if reference.in_string:
                continue
            shorten = unit.kind is Kind.QUALIFIED
            if reference.use is Use.CALL:
                call = self.analysis.parent(reference.node)
                assert call is not None
                self.codemod.add_edit(keys.of(call), Edit(unit, reference.target, shorten))
            elif reference.use is Use.DECORATOR:
                self.codemod.add_edit(
                    keys.of(reference.node, DECORATOR), Edit(unit, reference.target, shorten))
            elif shorten:
                self.codemod.add_edit(keys.of(reference.node), Edit(unit, reference.target, True))

    def _plan_plain_imports(self, units: Sequence[Unit], keys: _Keys) -> None:
        """`import torch.cuda.amp` goes once every use of the module has moved."""
        for module, device in DEPRECATED_MODULES.items():
            uses = [unit for unit in units if unit.kind is Kind.QUALIFIED and unit.device == device]
            if not uses or not all(unit.applies for unit in uses) or self._module_still_used(
                module
            ):
                continue
            for statement, scope in self.analysis.imports:
                if not isinstance(statement, ast.Import):
                    continue
                for alias in statement.names:
                    if alias.asname is None and alias.name == module:
                        self._plan_plain_import(statement, alias, scope, keys)

    def _module_still_used(self, module: str) -> bool:
        """Whether `torch.cuda.amp` appears other than as `torch.cuda.amp.<migrated>`."""
        device = DEPRECATED_MODULES[module]
        for load in self.analysis.loads:
            inner = self.analysis.parent(load.node)
            part = self.analysis.parent(inner) if inner is not None else None
            if not (
                isinstance(inner, ast.Attribute) and inner.attr == device
                and isinstance(part, ast.Attribute) and part.attr == "amp"
            ):
                continue
            use = self.analysis.parent(part)
            if load.in_string or not (
                isinstance(use, ast.Attribute) and use.value is part
                and use.attr in MIGRATABLE[device]
            ):
                return True
        return False

    def _plan_plain_import(
        self, statement: ast.Import, alias: ast.alias, scope: _Scope, keys: _Keys
    ) -> None:
        if self.codemod.suppressed([statement]):
            return
        unit = Unit(Kind.PLAIN_IMPORT, "cuda", statement=statement, alias=alias, applies=True)
        others_bind_torch = any(
            binding is not alias and isinstance(binding, ast.alias)
            for current in _scope_chain(scope)
            for binding in current.bindings.get("torch", [])
        )
        if not others_bind_torch and self._torch_read_through(scope):
            self.codemod.add_edit(keys.of(alias), Edit(unit, new_module="torch"))
        elif len(statement.names) > 1:
            self.codemod.add_edit(keys.of(alias), Edit(unit, new_module=""))
        elif self._removable(statement):
            self.codemod.add_edit(keys.of(statement), Edit(unit))

    def _torch_read_through(self, scope: _Scope) -> bool:
        return any(
            load.node.id == "torch"
            and self.analysis.binding_scope("torch", load.scope) is scope
            for load in self.analysis.loads
        )

    def _removable(self, statement: ast.Import) -> bool:
        """A whole line can go if it holds only this import and the block keeps a
        statement."""
        siblings = self._siblings(statement)
        return (
            siblings is not None and len(siblings) > 1
            and self._alone_on_its_lines(statement, siblings)
        )

    def _alone_on_its_lines(self, statement: ast.stmt, siblings: list[ast.stmt]) -> bool:
        """Not `a = 1; import x`, nor `if c: import x`."""
        index = next(i for i, sibling in enumerate(siblings) if sibling is statement)
        before = siblings[index - 1] if index else None
        after = siblings[index + 1] if index + 1 < len(siblings) else None
        end = statement.end_lineno or statement.lineno
        parent = self.analysis.parent(statement)
        return (
            (before is None or (before.end_lineno or before.lineno) < statement.lineno)
            and (after is None or after.lineno > end)
            and getattr(parent, "lineno", -1) != statement.lineno
        )


def _scope_chain(scope: _Scope) -> Iterator[_Scope]:
    current: _Scope | None = scope
    while current is not None:
        yield current
        current = current.parent


def _key_kind(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        return CALL
    if isinstance(node, ast.Attribute):
        return ATTRIBUTE
    if isinstance(node, ast.Name):
        return NAME
    if isinstance(node, ast.ImportFrom):
        return IMPORT_FROM
    if isinstance(node, ast.Import):
        return IMPORT
    if isinstance(node, ast.alias):
        return ALIAS
    raise TypeError(f"no key for {type(node).__name__}")


class _Keys:
    """The key of each ast node of interest: its rank among nodes of the same kind and
    dotted text on its first line, which is the order libcst visits them in."""

    def __init__(self, tree: ast.Module, wanted: Sequence[tuple[str, ast.AST]]) -> None:
        self._keys: dict[tuple[str, int], Key] = {}
        lines = {(kind, node.lineno) for kind, node in wanted}  # type: ignore[attr-defined]
        texts = {(kind, _text(kind, node)) for kind, node in wanted}
        peers: dict[tuple[str, int, str], list[ast.AST]] = {}
        for kind, node in _keyable_nodes(tree):
            line = node.lineno  # type: ignore[attr-defined]
            if (kind, line) not in lines:
                continue
            text = _text(kind, node)
            if (kind, text) in texts:
                peers.setdefault((kind, line, text), []).append(node)
        for (kind, line, text), nodes in peers.items():
            nodes.sort(key=lambda node: node.col_offset)  # type: ignore[attr-defined]
            for rank, node in enumerate(nodes):
                self._keys[(kind, id(node))] = (kind, line, text, rank)

    def of(self, node: ast.AST, kind: str | None = None) -> Key:
        return self._keys[(kind or _key_kind(node), id(node))]


def _keyable_nodes(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    for node in walk(tree):
        if isinstance(node, ast.Call):
            yield CALL, node
        elif isinstance(node, ast.Attribute):
            yield ATTRIBUTE, node
        elif isinstance(node, ast.Name):
            yield NAME, node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            yield (IMPORT if isinstance(node, ast.Import) else IMPORT_FROM), node
            for alias in node.names:
                if alias.name != "*":
                    yield ALIAS, alias
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                if not isinstance(decorator, ast.Call):
                    yield DECORATOR, decorator


def _text(kind: str, node: ast.AST) -> str:
    if kind == CALL:
        return dotted_name(node.func) or ""  # type: ignore[attr-defined]
    if kind in (ATTRIBUTE, NAME, DECORATOR):
        return dotted_name(node) or ""
    if kind == IMPORT_FROM:
        return node.module or "" if not node.level else ""  # type: ignore[attr-defined]
    if kind == IMPORT:
        return node.names[0].name  # type: ignore[attr-defined]
    return node.name  # type: ignore[attr-defined]


# -- small facts ----------------------------------------------------------------------------


def parse_version(text: str) -> tuple[int, int]:
    """"2.4" or "2.4.1" → (2, 4)."""
    parts = text.strip().split(".")
    try:
        return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError as exc:
        raise ValueError(f"amp-api: min-torch must look like '2.4', got {text!r}") from exc


def _is_device_amp(node: ast.Attribute) -> bool:
    """`<x>.cuda.amp` or `<x>.cpu.amp`."""
    return (
        node.attr == "amp"
        and isinstance(node.value, ast.Attribute)
        and node.value.attr in ("cuda", "cpu")
        and isinstance(node.value.value, ast.Name)
    )


def _deprecated_bindings(node: ast.ImportFrom) -> list[str] | None:
    """The names a `from ... import` binds to deprecated objects; None if it is unrelated."""
    if node.level or node.module is None:
        return None
    if node.module in DEPRECATED_MODULES:
        return [alias.asname or alias.name for alias in node.names if alias.name != "*"]
    if node.module in DEVICE_PACKAGES:
        names = [alias.asname or alias.name for alias in node.names if alias.name == "amp"]
        return names or None
    return None


def _is_torch_amp(qualified_name: str) -> bool:
    return (
        qualified_name in ("torch.amp", "torch.autocast")
        or qualified_name.startswith("torch.amp.")
    )


def _is_torch_amp_import(module: str, name: str) -> bool:
    return _is_torch_amp(module) or (module == "torch" and name in ("amp", "autocast"))


def _imports_torch_amp(statement: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(statement, ast.ImportFrom):
        return statement.level == 0 and any(
            _is_torch_amp_import(statement.module or "", alias.name) for alias in statement.names
        )
    return any(_is_torch_amp(alias.name) for alias in statement.names)


def _is_device_dispatch(test: ast.expr) -> bool:
    """Whether a condition picks a device (`device_type == "cuda"`, `is_npu_available()`)
    rather than a torch version (`TORCH_2_4`, `is_torch_version(">=", "2.4")`, hasattr):
    torch.amp in another branch of a device dispatch runs on any torch, so the code
    already needs a torch.amp-capable torch and its deprecated branch may migrate too."""
    words: list[str] = []
    device_strings = False
    for node in ast.walk(test):
        if isinstance(node, ast.Name):
            words.append(node.id.lower())
        elif isinstance(node, ast.Attribute):
            words.append(node.attr.lower())
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            device_strings |= node.value in DEVICE_NAMES
    if any(_names_version(word) for word in words):
        return False
    return device_strings or any("device" in word or word.endswith("available") for word in words)


def _names_version(word: str) -> bool:
    """`TORCH_2_4`, `_TORCH_GREATER_EQUAL_2_4`, `is_torch_version`, `hasattr`, ..."""
    return (
        "version" in word
        or word in ("hasattr", "getattr")
        or "_has_" in word
        or (word.strip("_").startswith("torch") and any(c.isdigit() for c in word))
    )


def _couple_class_checks(units: Sequence[Unit]) -> None:
    # New scalers are torch.amp.GradScaler objects, which a check against the old class
    # rejects: a class's checks and constructions in a file must move together.
    checked = {
        (unit.device, reference.target)
        for unit in units
        for reference in unit.references
        if reference.use is Use.CLASS_CHECK
    }
    for unit in units:
        for reference in unit.references:
            if (unit.device, reference.target) in checked:
                unit.unsafe_reason = (
                    f"isinstance checks against torch.amp.{reference.target} also accept "
                    "objects made for other devices"
                )


def _call_problem(call: ast.Call, target: str, old: str) -> str | None:
    """Why this call cannot simply gain its device, if it cannot."""
    device_keyword = DEVICE_KEYWORD[target]
    positional = [arg for arg in call.args if not isinstance(arg, ast.Starred)]
    keywords = {kw.arg for kw in call.keywords if kw.arg is not None}
    first = call.args[0] if call.args else None
    passes_device = device_keyword in keywords or (
        target in ("autocast", "GradScaler") and first is not None and _names_a_device(first)
    )
    if passes_device:
        return (
            f"this call already passes a device, which {old} does not take: make it a "
            f"torch.amp.{target} call by hand"
        )
    if target == "autocast":
        if any(isinstance(arg, ast.Starred) for arg in call.args):
            return (
                f"{old}(*args): the positional arguments cannot be mapped onto "
                "torch.amp.autocast's, whose order differs: migrate it by hand"
            )
        if len(positional) > len(AUTOCAST_POSITIONAL):
            return f"{old} takes at most {len(AUTOCAST_POSITIONAL)} positional arguments"
        twice = keywords.intersection(AUTOCAST_POSITIONAL[: len(positional)])
        if twice:
            return (
                f"{old} gets {sorted(twice)[0]} both by position and by keyword here (is the "
                "first argument meant to be a device?): migrate it by hand"
            )
    return None


def _names_a_device(argument: ast.expr) -> bool:
    """`"cuda"`, `"cuda:0"`, `device_type`, `self.device.type`: not an `enabled` flag or
    an `init_scale`, which is what the deprecated APIs take first."""
    if isinstance(argument, ast.Constant):
        return isinstance(argument.value, str) and argument.value.split(":")[0] in DEVICE_NAMES
    if isinstance(argument, ast.IfExp):  # `device.type if device.type == "xpu" else "cuda"`
        return _names_a_device(argument.body) or _names_a_device(argument.orelse)
    name = dotted_name(argument)
    return name is not None and any("device" in part.lower() for part in name.split(".")[-2:])


# -- libcst edits ------------------------------------------------------------------------


def _file_quote(module: cst.Module, budget: int = 4000) -> str:
    """The quote the file's strings mostly use (looking at its first few thousand nodes),
    for the device strings the codemod adds."""
    counts = {"'": 0, '"': 0}
    stack: list[cst.CSTNode] = list(reversed(module.body))
    while stack and budget > 0:
        node = stack.pop()
        budget -= 1
        if isinstance(node, cst.SimpleString):
            body = node.value.lstrip("rRbBuU")
            if body[:3] not in ('"""', "'''") and body[:1] in counts:
                counts[body[:1]] += 1
        else:
            stack.extend(reversed(node.children))
    return "'" if counts["'"] > counts['"'] else '"'


def _with_device(call: cst.Call, target: str, device: str, quote: str) -> cst.Call:
    """The call with the device the deprecated API implied, in the new API's position."""
    device_string = _string(device, quote)
    if target in ("custom_fwd", "custom_bwd"):
        # A keyword-only parameter: after the positional arguments, before the keywords.
        index = 0
        while index < len(call.args) and call.args[index].keyword is None and (
            call.args[index].star != "**"
        ):
            index += 1
        return insert_argument(call, index, keyword("device_type", device_string))
    if target == "autocast":
        args, position = [], 0
        for arg in call.args:
            if arg.keyword is None and not arg.star:
                arg = as_keyword(arg, AUTOCAST_POSITIONAL[position])
                position += 1
            args.append(arg)
        call = call.with_changes(args=args)
    return prepend_argument(call, cst.Arg(device_string))


def _string(text: str, quote: str) -> cst.SimpleString:
    return cst.SimpleString(f"{quote}{text}{quote}")


def _shortened(expression: cst.BaseExpression) -> cst.BaseExpression:
    """`torch.cuda.amp.X` → `torch.amp.X` (whatever torch is called here)."""
    assert isinstance(expression, cst.Attribute)
    module_part = expression.value
    assert isinstance(module_part, cst.Attribute) and isinstance(module_part.value, cst.Attribute)
    return expression.with_changes(value=module_part.with_changes(value=module_part.value.value))


def _new_module(module: cst.Attribute | cst.Name | None) -> cst.BaseExpression:
    """`torch.cuda.amp` → `torch.amp`; `torch.cuda` (as in `from torch.cuda import amp`)
    → `torch`."""
    assert isinstance(module, cst.Attribute)
    if module.attr.value in ("cuda", "cpu"):
        return module.value
    assert isinstance(module.value, cst.Attribute)
    return module.with_changes(value=module.value.value)


def _dotted_cst(name: str) -> cst.Attribute | cst.Name:
    expression = cst.parse_expression(name)
    assert isinstance(expression, (cst.Attribute, cst.Name))
    return expression


def _partition_names(
    updated: cst.ImportFrom, moving: Sequence[Unit]
) -> tuple[list[cst.ImportAlias], list[cst.ImportAlias]]:
    """The aliases that move to torch.amp, and those that stay."""
    assert not isinstance(updated.names, cst.ImportStar)
    moving_names = {(unit.alias.name, unit.alias.asname) for unit in moving if unit.alias}
    moved: list[cst.ImportAlias] = []
    kept: list[cst.ImportAlias] = []
    for alias in updated.names:
        key = (get_full_name_for_node(alias.name), alias.evaluated_alias)
        (moved if key in moving_names else kept).append(alias)
    return moved, kept


def _one_line(aliases: Sequence[cst.ImportAlias]) -> list[cst.ImportAlias]:
    """`a, b as c`: the aliases on one line, whatever their layout was."""
    separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    return [
        alias.with_changes(comma=separator if index < len(aliases) - 1
                           else cst.MaybeSentinel.DEFAULT)
        for index, alias in enumerate(aliases)
    ]


def _kept_import(updated: cst.ImportFrom, kept: Sequence[cst.ImportAlias]) -> cst.ImportFrom:
    """The import with only the names that stay; an exploded one keeps its layout."""
    assert not isinstance(updated.names, cst.ImportStar)
    if len(kept) > 1 and updated.lpar is not None:
        names = list(kept)
        names[-1] = names[-1].with_changes(comma=updated.names[-1].comma)
        return updated.with_changes(names=names)
    return updated.with_changes(names=_one_line(kept), lpar=None, rpar=None)


def _merged(units: Sequence[Unit]) -> Unit:
    """One stand-in for several units whose edits share a statement."""
    unsafe = [unit.unsafe_reason for unit in units if unit.unsafe_reason]
    first = units[0]
    return Unit(first.kind, first.device, unsafe_reason=unsafe[0] if unsafe else None,
                applies=first.applies)


def _call_message(unit: Unit, target: str) -> str:
    if target in ("custom_fwd", "custom_bwd"):
        return (f'{unit.old_module}.{target} is deprecated: use '
                f'torch.amp.{target}(device_type="{unit.device}")')
    return (f'{unit.old_module}.{target}(...) is deprecated: use '
            f'torch.amp.{target}("{unit.device}", ...)')


def _import_message(units: Sequence[Unit]) -> str:
    first = units[0]
    if first.kind is Kind.NAME:
        names = ", ".join(unit.alias.name for unit in units if unit.alias)
        return f"import {names} from torch.amp: {first.old_module} is deprecated"
    return f"import amp from torch: {first.old_module} is deprecated"
