"""amp-api: move `torch.cuda.amp` and `torch.cpu.amp` to `torch.amp`, naming the device."""

from __future__ import annotations

import ast
import enum
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.helpers import get_full_name_for_node
from libcst.metadata import (
    BaseAssignment,
    ImportAssignment,
    ParentNodeProvider,
    QualifiedNameProvider,
    Scope,
    ScopeProvider,
)

from torchfix.codemod import CodemodSettings, Option, Safety, TorchfixCodemod
from torchfix.edits import as_keyword, insert_argument, keyword, prepend_argument

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


@dataclass
class Reference:
    """One place that names a deprecated object, and how it is used there."""

    node: cst.CSTNode  # the expression naming the object (a string for string annotations)
    target: str  # its name in torch.cuda.amp / torch.cpu.amp
    use: Use = Use.VALUE
    problem: str | None = None  # why this use cannot be migrated automatically


@dataclass(eq=False)
class Unit:
    """What migrates together: an imported name or module with all its references, or
    one qualified reference. Either every edit of a unit is applied or none is."""

    kind: Kind
    device: str
    references: list[Reference] = field(default_factory=list)
    statement: cst.Import | cst.ImportFrom | None = None
    alias: cst.ImportAlias | None = None
    problems: list[tuple[cst.CSTNode, str]] = field(default_factory=list)  # "": stay silent
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
        return self.alias.evaluated_alias or self.alias.evaluated_name

    @property
    def safety(self) -> Safety:
        return Safety.UNSAFE if self.unsafe_reason else Safety.SAFE


class AmpApi(TorchfixCodemod):
    """Replace the deprecated `torch.cuda.amp` / `torch.cpu.amp` APIs with `torch.amp`.

    ## What it does
    Rewrites every import and use of `torch.cuda.amp.autocast`, `GradScaler`,
    `custom_fwd` and `custom_bwd` (and of `torch.cpu.amp.autocast` and `GradScaler`)
    into the device-generic `torch.amp` API, passing the device the old name implied:

    - `autocast(...)` → `autocast("cuda", ...)`; positional arguments of the old
      signature `(enabled, dtype, cache_enabled)` become keywords, because the new one
      is `(device_type, dtype, enabled, cache_enabled)`: `autocast(use_amp)` →
      `autocast("cuda", enabled=use_amp)`;
    - `GradScaler(...)` → `GradScaler("cuda", ...)`;
    - `@custom_fwd` → `@custom_fwd(device_type="cuda")`, `@custom_fwd(cast_inputs=x)`
      → `@custom_fwd(device_type="cuda", cast_inputs=x)`, and likewise `custom_bwd`;
    - type annotations and `isinstance` checks name `torch.amp.GradScaler`;
    - imports change where they stand: `from torch.cuda.amp import autocast` →
      `from torch.amp import autocast`, `from torch.cuda import amp` →
      `from torch import amp`, `import torch.cuda.amp as amp` → `import torch.amp as amp`
      (an import that also names something else is split). An `import torch.cuda.amp`
      that nothing needs any more is removed, or becomes `import torch` when nothing
      else imports torch.

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
    is a deliberate fallback for old torch), and names torch.amp has no equivalent for
    (`amp_definitely_not_available`, the `autocast_mode`/`grad_scaler` submodules).

    ## Options
    - `min-torch` (default `"2.4"`): the oldest torch the code must run on.
    """

    name = "amp-api"
    summary = "Move deprecated torch.cuda.amp / torch.cpu.amp APIs to torch.amp with the device."
    triggers = (b"cuda.amp", b"cpu.amp", b"torch.cuda import", b"torch.cpu import")
    fix_safety = "safe, unsafe"
    options = (
        Option("min-torch", "2.4", "Oldest torch the code supports; replacements that need "
                                   "a newer one are reported instead of applied."),
    )

    METADATA_DEPENDENCIES = (ScopeProvider, QualifiedNameProvider, ParentNodeProvider)

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        lines: set[int] = set()
        bound: set[str] = set()
        name_lines: dict[str, list[int]] = {}
        for node in ast.walk(tree):
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
                if (
                    node.attr == "amp"
                    and isinstance(node.value, ast.Attribute)
                    and node.value.attr in ("cuda", "cpu")
                ):
                    lines.add(node.lineno)
            elif isinstance(node, ast.Name):
                name_lines.setdefault(node.id, []).append(node.lineno)
        if lines:
            for name in bound:
                lines.update(name_lines.get(name, ()))
        return lines

    def __init__(self, context: CodemodContext, settings: CodemodSettings | None = None) -> None:
        super().__init__(context, settings)
        self._min_torch = parse_version(str(self.option("min-torch")))
        self._quote = '"'
        # Edits planned in visit_Module, keyed by the original node each one replaces.
        self._calls: dict[cst.Call, tuple[Unit, Reference]] = {}
        self._decorators: dict[cst.Decorator, tuple[Unit, Reference]] = {}
        self._renames: dict[cst.Attribute, tuple[Unit, Reference]] = {}
        self._from_imports: dict[cst.ImportFrom, list[Unit]] = {}
        self._aliases: dict[cst.ImportAlias, tuple[Unit, str]] = {}  # "": remove the alias
        self._removed_lines: dict[cst.SimpleStatementLine, Unit] = {}
        self._added_lines: dict[cst.SimpleStatementLine, cst.SimpleStatementLine] = {}
        self._split_lines: dict[cst.ImportFrom, cst.SimpleStatementLine] = {}
        self._reports: dict[cst.CSTNode, list[str]] = {}
        self._pending: set[cst.CSTNode] = set()  # edits of applied units not yet made
        self._orphaned_lines: list[cst.EmptyLine] = []  # from a removed import line
        self._orphan_depth = -1

    # -- planning: decide everything before the first edit -------------------------------

    def visit_Module(self, node: cst.Module) -> None:
        survey = _Survey(self)
        node.visit(survey)
        self._quote = survey.quote()
        units = [*self._import_units(survey), *self._qualified_units(survey)]
        _couple_class_checks(units)
        for unit in units:
            self._judge(unit, survey)
        self._decide(units)
        for unit in units:
            self._plan(unit)
        self._plan_plain_imports(units, survey)

    def _import_units(self, survey: _Survey) -> Iterator[Unit]:
        for statement in survey.import_froms:
            module = _module_name(statement)
            if module in DEPRECATED_MODULES:
                if isinstance(statement.names, cst.ImportStar):
                    self._add_report(statement, (
                        f"star import from the deprecated {module}: import autocast, "
                        "GradScaler, ... from torch.amp by name"
                    ))
                    continue
                for alias in statement.names:
                    yield self._bound_unit(Kind.NAME, DEPRECATED_MODULES[module], statement, alias)
            elif module in DEVICE_PACKAGES and not isinstance(statement.names, cst.ImportStar):
                for alias in statement.names:
                    if alias.evaluated_name == "amp":
                        yield self._bound_unit(
                            Kind.MODULE, DEVICE_PACKAGES[module], statement, alias
                        )
        for statement in survey.imports:
            for alias in statement.names:
                module = get_full_name_for_node(alias.name)
                if module in DEPRECATED_MODULES and alias.asname is not None:
                    yield self._bound_unit(
                        Kind.MODULE, DEPRECATED_MODULES[module], statement, alias
                    )

    def _bound_unit(
        self, kind: Kind, device: str, statement: cst.Import | cst.ImportFrom,
        alias: cst.ImportAlias,
    ) -> Unit:
        """An imported name or module with every reference the scope analysis finds."""
        unit = Unit(kind, device, statement=statement, alias=alias)
        bound = unit.bound_name
        scope = self.get_metadata(ScopeProvider, statement, None)
        if scope is None:
            unit.problems.append((alias, ""))
            return unit
        assignments = list(scope.assignments[bound])
        mine = [a for a in assignments if isinstance(a, ImportAssignment) and a.node is statement]
        others = [a for a in assignments if a not in mine]
        if others:
            unit.bound_elsewhere = True
            if any(_binds_torch_amp(other) for other in others):
                unit.fallback = True  # try: from torch.amp import X / except: from torch.cuda.amp
            else:
                unit.problems.append((alias, (
                    f"`{bound}` is also bound to something else in this scope"
                    f"{self._line_note(others)}: migrate it to torch.amp by hand"
                )))
            return unit
        for assignment in mine:
            for access in assignment.references:
                unit.references.append(self._bound_reference(unit, access.node))
        return unit

    def _bound_reference(self, unit: Unit, node: cst.CSTNode) -> Reference:
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            return _string_annotation_reference(unit, node)
        if unit.kind is Kind.NAME:
            assert unit.alias is not None
            return self._classified(Reference(node, unit.alias.evaluated_name), unit)
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return self._classified(Reference(parent, parent.attr.value), unit)
        return Reference(node, "", problem=(
            f"`{unit.bound_name}` ({unit.old_module}) is used as a value here, so it must "
            "stay bound to the deprecated module: migrate its uses by hand"
        ))

    def _qualified_units(self, survey: _Survey) -> Iterator[Unit]:
        for module_part in survey.module_parts:
            device = self.qualified_device(module_part)
            parent = self.get_metadata(ParentNodeProvider, module_part, None)
            if device is None or not (
                isinstance(parent, cst.Attribute) and parent.value is module_part
            ):
                continue  # the module itself, passed around: not deprecated as such
            unit = Unit(Kind.QUALIFIED, device)
            unit.references.append(self._classified(Reference(parent, parent.attr.value), unit))
            yield unit

    def qualified_device(self, module_part: cst.Attribute) -> str | None:
        """"cuda" for `torch.cuda.amp` (through any alias of torch), else None."""
        inner = module_part.value
        if not (
            isinstance(inner, cst.Attribute)
            and inner.attr.value in ("cuda", "cpu")
            and isinstance(inner.value, cst.Name)
        ):
            return None
        names = {q.name for q in self.get_metadata(QualifiedNameProvider, module_part, set())}
        return DEPRECATED_MODULES.get(names.pop()) if len(names) == 1 else None

    def _classified(self, reference: Reference, unit: Unit) -> Reference:
        """How the reference is used, and whether that use can be migrated."""
        node = reference.node
        parent = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(parent, cst.Call) and parent.func is node:
            reference.use = Use.CALL
        elif isinstance(parent, cst.Decorator) and parent.decorator is node:
            reference.use = Use.DECORATOR
        elif self._in_annotation(node):
            reference.use = Use.ANNOTATION
        elif self._in_class_check(node):
            reference.use = Use.CLASS_CHECK
        if reference.target not in MIGRATABLE[unit.device]:
            return reference  # torch.amp has no such name: judged with its unit
        old = f"{unit.old_module}.{reference.target}"
        if reference.use is Use.CALL:
            assert isinstance(parent, cst.Call)
            reference.problem = _call_problem(parent, reference.target, old)
        elif reference.use is Use.DECORATOR and reference.target not in (
            "custom_fwd", "custom_bwd"
        ):
            reference.use = Use.VALUE
        if reference.use is Use.VALUE:
            reference.problem = (
                f"{old} is subclassed here; torch.amp.{reference.target} takes the device as "
                "its first argument, so the subclass must pass it: migrate it by hand"
                if isinstance(parent, cst.Arg) and isinstance(
                    self.get_metadata(ParentNodeProvider, parent, None), cst.ClassDef)
                else f"{old} is used as a value here, so the device cannot be added where "
                f"it is called: migrate it to torch.amp.{reference.target} by hand"
            )
        return reference

    def _in_annotation(self, node: cst.CSTNode) -> bool:
        current: cst.CSTNode | None = node
        while current is not None:
            if isinstance(current, cst.Annotation):
                return True
            if isinstance(current, (cst.Call, cst.Lambda, cst.BaseSmallStatement,
                                    cst.BaseCompoundStatement, cst.SimpleStatementLine)):
                return False
            current = self.get_metadata(ParentNodeProvider, current, None)
        return False

    def _in_class_check(self, node: cst.CSTNode) -> bool:
        arg = self.get_metadata(ParentNodeProvider, node, None)
        if isinstance(arg, cst.Element):  # isinstance(x, (GradScaler, ShardedGradScaler))
            container = self.get_metadata(ParentNodeProvider, arg, None)
            if not isinstance(container, cst.Tuple):
                return False
            arg = self.get_metadata(ParentNodeProvider, container, None)
        if not isinstance(arg, cst.Arg) or arg.keyword is not None or arg.star:
            return False
        call = self.get_metadata(ParentNodeProvider, arg, None)
        return (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Name)
            and call.func.value in CLASS_CHECKS
            and len(call.args) == 2
            and call.args[1] is arg
        )

    def _judge(self, unit: Unit, survey: _Survey) -> None:
        """Note what stops a unit from migrating, and whether it is an old-torch fallback."""
        anchors = [unit.statement] if unit.statement is not None else []
        anchors += [reference.node for reference in unit.references]
        if unit.fallback or any(survey.in_fallback(node) for node in anchors):
            unit.fallback = True
            return
        if unit.bound_elsewhere:
            return  # already reported
        deprecated = [r for r in unit.references if r.target in MIGRATABLE[unit.device]]
        if unit.kind is Kind.MODULE and not deprecated:
            # Nothing deprecated goes through this module alias (importing the module
            # alone does not warn): no reason to touch or report it.
            unit.problems.append((unit.alias or unit.statement, ""))  # type: ignore[arg-type]
            return
        for reference in unit.references:
            if reference.problem:
                unit.problems.append((reference.node, reference.problem))
            elif reference.target not in MIGRATABLE[unit.device]:
                # A module alias also used for a name torch.amp lacks has to stay, and
                # its deprecated uses with it: say so only if there are any.
                unit.problems.append((reference.node, (
                    f"`{unit.bound_name}` is also used for {unit.old_module}."
                    f"{reference.target}, which torch.amp lacks: migrate its other uses "
                    "by hand"
                ) if deprecated and unit.kind is Kind.MODULE else ""))
        if unit.kind is Kind.QUALIFIED:
            self._check_min_torch(unit, unit.references[0].node, [unit.references[0].target])
            return
        assert unit.alias is not None
        if unit.kind is Kind.NAME and unit.alias.evaluated_name not in MIGRATABLE[unit.device]:
            unit.problems.append((unit.alias, ""))  # amp_definitely_not_available & co
            return
        if not unit.references or unit.bound_name in survey.exported:
            what = "not used in this file" if not unit.references else "listed in __all__"
            unit.problems.append((unit.alias, (
                f"`{unit.bound_name}` comes from the deprecated {unit.old_module} and is "
                f"{what}: modules that import it from here call it without a device, so "
                "migrate them together by hand"
            )))
        targets = (
            [unit.alias.evaluated_name] if unit.kind is Kind.NAME
            else sorted({reference.target for reference in deprecated})
        )
        self._check_min_torch(unit, unit.alias, targets)

    def _check_min_torch(self, unit: Unit, node: cst.CSTNode, targets: Iterable[str]) -> None:
        for target in targets:
            since = SINCE.get(target)
            if since is not None and since > self._min_torch:
                unit.problems.append((node, (
                    f"{unit.old_module}.{target} is deprecated, but torch.amp.{target} needs "
                    f"torch >= {since[0]}.{since[1]} (min-torch is "
                    f"{self._min_torch[0]}.{self._min_torch[1]}): keep it, or choose by "
                    "torch version by hand"
                )))

    def _decide(self, units: Sequence[Unit]) -> None:
        """Which units apply in this run; a from-import that only partly moves is split."""
        for unit in units:
            if unit.fallback or unit.problems:
                continue
            nodes = self._edit_nodes(unit)
            if any(self.is_suppressed(node) for node in nodes):
                unit.problems.append((nodes[0], ""))
                continue
            unit.applies = self.would_apply(nodes[0], unit.safety)
        by_statement: dict[cst.ImportFrom, list[Unit]] = {}
        for unit in units:
            if isinstance(unit.statement, cst.ImportFrom):
                by_statement.setdefault(unit.statement, []).append(unit)
        for statement, statement_units in by_statement.items():
            assert not isinstance(statement.names, cst.ImportStar)
            moving = [unit for unit in statement_units if unit.applies]
            if not moving or len(moving) == len(statement.names):
                continue
            line = self.get_metadata(ParentNodeProvider, statement, None)
            if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
                self._split_lines[statement] = line
                continue
            for unit in moving:  # `x = 1; from torch.cuda.amp import ...` cannot be split
                unit.applies = False
                unit.problems.append((statement, (
                    "this import mixes names that move to torch.amp with names that stay: "
                    "split it by hand"
                )))

    def _edit_nodes(self, unit: Unit) -> list[cst.CSTNode]:
        """The nodes a unit changes, or where its change is recorded."""
        nodes: list[cst.CSTNode] = []
        if unit.statement is not None:
            nodes.append(unit.statement if isinstance(unit.statement, cst.ImportFrom)
                         else unit.alias)  # type: ignore[arg-type]
        for reference in unit.references:
            if reference.use in (Use.CALL, Use.DECORATOR):
                nodes.append(self.get_metadata(ParentNodeProvider, reference.node))
            elif unit.kind is Kind.QUALIFIED:
                nodes.append(reference.node)  # `torch.cuda.amp.GradScaler` is shortened
        return nodes

    def _plan(self, unit: Unit) -> None:
        for node, message in unit.problems:
            if message and not unit.fallback:
                self._add_report(node, message)
        if unit.fallback or unit.problems:
            return
        if isinstance(unit.statement, cst.ImportFrom):
            self._from_imports.setdefault(unit.statement, []).append(unit)
        elif unit.alias is not None:
            self._aliases[unit.alias] = (unit, "torch.amp")
        for reference in unit.references:
            if reference.use is Use.CALL:
                self._calls[self.get_metadata(ParentNodeProvider, reference.node)] = (
                    unit, reference)
            elif reference.use is Use.DECORATOR:
                self._decorators[self.get_metadata(ParentNodeProvider, reference.node)] = (
                    unit, reference)
            elif unit.kind is Kind.QUALIFIED:
                assert isinstance(reference.node, cst.Attribute)
                self._renames[reference.node] = (unit, reference)
        if unit.applies:
            self._pending.update(self._edit_nodes(unit))

    def _plan_plain_imports(self, units: Sequence[Unit], survey: _Survey) -> None:
        """`import torch.cuda.amp` goes once every use of the module has moved."""
        migrated = {
            reference.node
            for unit in units
            if unit.kind is Kind.QUALIFIED and unit.applies
            for reference in unit.references
        }
        for module, device in DEPRECATED_MODULES.items():
            uses = [
                self.get_metadata(ParentNodeProvider, part, None)
                for part in survey.module_parts
                if self.qualified_device(part) == device
            ]
            if not uses or any(use not in migrated for use in uses):
                continue
            for statement in survey.imports:
                for alias in statement.names:
                    if alias.asname is None and get_full_name_for_node(alias.name) == module:
                        self._plan_plain_import(statement, alias)

    def _plan_plain_import(self, statement: cst.Import, alias: cst.ImportAlias) -> None:
        scope = self.get_metadata(ScopeProvider, statement, None)
        if scope is None or self.is_suppressed(statement):
            return
        unit = Unit(Kind.PLAIN_IMPORT, "cuda", statement=statement, alias=alias, applies=True)
        if _uses_torch_through(scope, statement) and not _torch_bound_elsewhere(scope, statement):
            self._aliases[alias] = (unit, "torch")
            self._pending.add(alias)
        elif len(statement.names) > 1:
            self._aliases[alias] = (unit, "")
            self._pending.add(alias)
        else:
            line = self.get_metadata(ParentNodeProvider, statement, None)
            block = self.get_metadata(ParentNodeProvider, line, None) if line else None
            if (
                isinstance(line, cst.SimpleStatementLine)
                and len(line.body) == 1
                and isinstance(block, (cst.Module, cst.IndentedBlock))
                and len(block.body) > 1
            ):
                self._removed_lines[line] = unit
                self._pending.add(line)

    def _add_report(self, node: cst.CSTNode, message: str) -> None:
        self._reports.setdefault(node, []).append(message)

    def _line_note(self, assignments: Sequence[BaseAssignment]) -> str:
        try:
            return f" (line {self.position(assignments[0].node).start.line})"
        except (KeyError, RuntimeError):
            return ""

    # -- the rewrite ---------------------------------------------------------------------

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> object:
        for message in self._reports.pop(original_node, ()):
            self.report(original_node, message)
        depth = len(self._statements)
        result = super().on_leave(original_node, updated_node)
        if (
            self._orphaned_lines
            and depth == self._orphan_depth
            and isinstance(result, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
            and original_node not in self._removed_lines
        ):
            # The next statement after a removed import keeps the lines above it.
            lines, self._orphaned_lines = self._orphaned_lines, []
            result = result.with_changes(leading_lines=[*lines, *result.leading_lines])
        return result

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        planned = self._calls.get(original_node)
        if planned is None:
            return updated_node
        unit, reference = planned
        replacement = _with_device(updated_node, reference.target, unit.device, self._quote)
        if unit.kind is Kind.QUALIFIED:
            replacement = replacement.with_changes(func=_shortened(replacement.func))
        return self._fix(unit, original_node, updated_node, replacement,
                         _call_message(unit, reference.target))

    def leave_Decorator(
        self, original_node: cst.Decorator, updated_node: cst.Decorator
    ) -> cst.Decorator:
        planned = self._decorators.get(original_node)
        if planned is None:
            return updated_node
        unit, reference = planned
        name = updated_node.decorator
        if unit.kind is Kind.QUALIFIED:
            name = _shortened(name)
        device = keyword("device_type", _string(unit.device, self._quote))
        replacement = updated_node.with_changes(decorator=cst.Call(func=name, args=[device]))
        return self._fix(unit, original_node, updated_node, replacement,
                         _call_message(unit, reference.target))

    def leave_Attribute(
        self, original_node: cst.Attribute, updated_node: cst.Attribute
    ) -> cst.BaseExpression:
        planned = self._renames.get(original_node)
        if planned is None:
            return updated_node
        unit, reference = planned
        message = (f"{unit.old_module}.{reference.target} is deprecated: use "
                   f"torch.amp.{reference.target}")
        return self._fix(unit, original_node, updated_node, _shortened(updated_node), message)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.ImportFrom:
        units = self._from_imports.get(original_node)
        if units is None:
            return updated_node
        moving = [unit for unit in units if unit.applies]
        waiting = [unit for unit in units if not unit.applies]
        if waiting:  # unsafe without --unsafe-fixes: recorded, not applied
            self._fix(_merged(waiting), original_node, updated_node, updated_node,
                      _import_message(waiting))
        if not moving:
            return updated_node
        line = self._split_lines.get(original_node)
        if line is None:
            replacement = updated_node.with_changes(module=_new_module(updated_node.module))
            return self._fix(_merged(moving), original_node, updated_node, replacement,
                             _import_message(moving))
        moved, kept = _partition_names(original_node, updated_node, moving)
        new_import = updated_node.with_changes(
            module=_new_module(updated_node.module), names=_one_line(moved),
            lpar=None, rpar=None,
        )

        def add_line() -> None:
            self._added_lines[line] = cst.SimpleStatementLine(body=[new_import])

        return self._fix(
            _merged(moving), original_node, updated_node, _kept_import(updated_node, kept),
            _import_message(moving), on_apply=add_line,
        )

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        # Aliases are edited here, not one by one: libcst rejects an import whose last
        # name keeps a comma, as it would for a moment after removing the last alias.
        names: list[cst.ImportAlias] = []
        for original_alias, alias in zip(original_node.names, updated_node.names, strict=True):
            planned = self._aliases.get(original_alias)
            if planned is None:
                names.append(alias)
                continue
            unit, new_module = planned
            old = get_full_name_for_node(original_alias.name)
            if new_module == "":
                result = self._fix(unit, original_alias, alias, cst.RemovalSentinel.REMOVE,
                                   f"remove `import {old}`: nothing uses it after the move "
                                   "to torch.amp")
            elif unit.kind is Kind.PLAIN_IMPORT:
                result = self._fix(unit, original_alias, alias,
                                   alias.with_changes(name=_dotted(new_module)),
                                   f"`import torch` replaces `import {old}`, which nothing "
                                   "uses after the move to torch.amp")
            else:
                result = self._fix(unit, original_alias, alias,
                                   alias.with_changes(name=_dotted(new_module)),
                                   f"import torch.amp instead of the deprecated {old}")
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
        unit = self._removed_lines.get(original_node)
        if unit is not None:
            return self._remove_line(unit, original_node, updated_node)
        added = self._added_lines.pop(original_node, None)
        if added is not None:
            return cst.FlattenSentinel([updated_node, added])
        return updated_node

    def _remove_line(
        self, unit: Unit, original_node: cst.SimpleStatementLine,
        updated_node: cst.SimpleStatementLine,
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        old = get_full_name_for_node(unit.alias.name) if unit.alias else unit.old_module
        depth = len(self._statements)

        def keep_leading_lines() -> None:
            # Blank lines and comments above the import stay, above the next statement.
            self._orphaned_lines = list(updated_node.leading_lines)
            self._orphan_depth = depth

        return self._fix(
            unit, original_node, updated_node, cst.RemovalSentinel.REMOVE,
            f"remove `import {old}`: nothing uses it after the move to torch.amp",
            on_apply=keep_leading_lines,
        )

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        return self._orphans_to_footer(updated_node)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        updated_node = self._orphans_to_footer(updated_node)
        for node, messages in list(self._reports.items()):
            for message in messages:  # a report on a node the focus skipped
                self.report(node, message)
        self._reports.clear()
        if self._pending:
            # A unit half migrated (an import moved, a call left without its device)
            # would break the file: fail it instead, which leaves it unchanged.
            raise RuntimeError(
                f"{len(self._pending)} planned edit(s) were never reached; file left as is"
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
        self, unit: Unit, original: cst.CSTNode, updated: NodeT, replacement: object,
        message: str, on_apply: Callable[[], None] | None = None,
    ) -> NodeT:
        if unit.unsafe_reason:
            message += f" (unsafe: {unit.unsafe_reason})"
        if not unit.applies:
            replacement = updated  # recorded as a finding only
        result = self.fix(original, updated, replacement, message, unit.safety, on_apply)
        if unit.applies:
            self._pending.discard(original)
        return result  # type: ignore[no-any-return]


class _Survey(cst.CSTVisitor):
    """One walk over the whole module: the imports, the `torch.cuda.amp` attributes, and
    what tells an old-torch fallback apart (torch.amp mentioned in another branch)."""

    def __init__(self, codemod: AmpApi) -> None:
        super().__init__()
        self._codemod = codemod
        self.import_froms: list[cst.ImportFrom] = []
        self.imports: list[cst.Import] = []
        self.module_parts: list[cst.Attribute] = []  # `<torch>.cuda.amp`, `<torch>.cpu.amp`
        self.exported: set[str] = set()  # names in __all__
        self._amp_attributes: list[cst.Attribute] = []  # `<x>.amp`, `<x>.autocast`
        self._names: dict[str, list[cst.Name]] = {}
        self._amp_imports: list[cst.CSTNode] = []
        self._amp_names: set[str] = set()  # names bound by imports from torch.amp
        self._import_depth = 0
        self._quotes = {"'": 0, '"': 0}
        self._holding_amp: set[cst.CSTNode] | None = None

    def visit_Import(self, node: cst.Import) -> None:
        self.imports.append(node)
        self._import_depth += 1
        for alias in node.names:
            name = get_full_name_for_node(alias.name) or ""
            if name == "torch.amp" or name.startswith("torch.amp."):
                self._amp_imports.append(node)
                self._amp_names.add(alias.evaluated_alias or "torch")

    def leave_Import(self, original_node: cst.Import) -> None:
        self._import_depth -= 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.import_froms.append(node)
        self._import_depth += 1
        module = _module_name(node) or ""
        if isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            if _is_torch_amp_import(module, alias.evaluated_name):
                self._amp_imports.append(node)
                self._amp_names.add(alias.evaluated_alias or alias.evaluated_name)

    def leave_ImportFrom(self, original_node: cst.ImportFrom) -> None:
        self._import_depth -= 1

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self._import_depth:
            return
        attr = node.attr.value
        if attr in ("amp", "autocast"):
            self._amp_attributes.append(node)
        if (
            attr == "amp"
            and isinstance(node.value, cst.Attribute)
            and node.value.attr.value in ("cuda", "cpu")
        ):
            self.module_parts.append(node)

    def visit_Name(self, node: cst.Name) -> None:
        if not self._import_depth:
            self._names.setdefault(node.value, []).append(node)

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        body = node.value.lstrip("rRbBuUfF")
        if body[:3] not in ('"""', "'''") and body[:1] in self._quotes:
            self._quotes[body[:1]] += 1

    def visit_Assign(self, node: cst.Assign) -> None:
        if any(isinstance(t.target, cst.Name) and t.target.value == "__all__"
               for t in node.targets):
            self._note_exported(node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name) and node.target.value == "__all__":
            self._note_exported(node.value)

    def _note_exported(self, value: cst.BaseExpression) -> None:
        if isinstance(value, (cst.List, cst.Tuple)):
            for element in value.elements:
                if isinstance(element.value, cst.SimpleString):
                    text = element.value.evaluated_value
                    if isinstance(text, str):
                        self.exported.add(text)

    def quote(self) -> str:
        """The file's own string quote, for the device strings the codemod adds."""
        return "'" if self._quotes["'"] > self._quotes['"'] else '"'

    def in_fallback(self, node: cst.CSTNode) -> bool:
        """Whether another branch of an enclosing if / conditional expression / try (or
        its condition) uses torch.amp: the old spelling here serves old torch."""
        holding = self._nodes_holding_amp()
        parent_of = self._codemod.get_metadata
        child = node
        parent = parent_of(ParentNodeProvider, child, None)
        while parent is not None:
            if (
                isinstance(parent, (cst.If, cst.IfExp, cst.Try, cst.TryStar))
                and any(other is not child and other in holding for other in parent.children)
                and not (isinstance(parent, (cst.If, cst.IfExp))
                         and _is_device_dispatch(parent.test))
            ):
                return True
            child, parent = parent, parent_of(ParentNodeProvider, parent, None)
        return False

    def _nodes_holding_amp(self) -> set[cst.CSTNode]:
        if self._holding_amp is not None:
            return self._holding_amp
        mentions = list(self._amp_imports)
        candidates: list[cst.CSTNode] = list(self._amp_attributes)
        for name in self._amp_names:
            candidates.extend(self._names.get(name, ()))
        for candidate in candidates:
            names = self._codemod.get_metadata(QualifiedNameProvider, candidate, set())
            if any(_is_torch_amp(qualified.name) for qualified in names):
                mentions.append(candidate)
        holding: set[cst.CSTNode] = set()
        for mention in mentions:
            current: cst.CSTNode | None = mention
            while current is not None and current not in holding:
                holding.add(current)
                current = self._codemod.get_metadata(ParentNodeProvider, current, None)
        self._holding_amp = holding
        return holding


def _is_device_dispatch(test: cst.BaseExpression) -> bool:
    """Whether a condition picks a device (`device_type == "cuda"`, `is_npu_available()`)
    rather than a torch version (`TORCH_2_4`, `is_torch_version(">=", "2.4")`, hasattr):
    torch.amp in another branch of a device dispatch runs on any torch, so the code
    already needs a torch.amp-capable torch and its deprecated branch may migrate too."""
    words: list[str] = []
    device_strings = False
    for node in _subtree(test):
        if isinstance(node, cst.Name):
            words.append(node.value.lower())
        elif isinstance(node, cst.SimpleString):
            text = node.evaluated_value
            device_strings |= isinstance(text, str) and text in DEVICE_NAMES
    if any(_names_version(word) for word in words):
        return False
    return device_strings or any(
        "device" in word or word.endswith("available") for word in words
    )


def _names_version(word: str) -> bool:
    """`TORCH_2_4`, `_TORCH_GREATER_EQUAL_2_4`, `is_torch_version`, `hasattr`, ..."""
    digits = any(character.isdigit() for character in word)
    return (
        "version" in word
        or word in ("hasattr", "getattr")
        or "_has_" in word
        or (word.strip("_").startswith("torch") and digits)
    )


def _subtree(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def parse_version(text: str) -> tuple[int, int]:
    """"2.4" or "2.4.1" → (2, 4)."""
    parts = text.strip().split(".")
    try:
        return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0
    except ValueError as exc:
        raise ValueError(f"amp-api: min-torch must look like '2.4', got {text!r}") from exc


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


def _module_name(statement: cst.ImportFrom) -> str | None:
    if statement.relative or statement.module is None:
        return None
    return get_full_name_for_node(statement.module)


def _is_torch_amp(qualified_name: str) -> bool:
    return (
        qualified_name in ("torch.amp", "torch.autocast")
        or qualified_name.startswith("torch.amp.")
    )


def _is_torch_amp_import(module: str, name: str) -> bool:
    return _is_torch_amp(module) or (module == "torch" and name in ("amp", "autocast"))


def _binds_torch_amp(assignment: BaseAssignment) -> bool:
    """Whether this other binding of the same name is an import from torch.amp."""
    if not isinstance(assignment, ImportAssignment):
        return False
    statement = assignment.node
    if isinstance(statement, cst.ImportFrom):
        module = _module_name(statement) or ""
        return not isinstance(statement.names, cst.ImportStar) and any(
            (alias.evaluated_alias or alias.evaluated_name) == assignment.name
            and _is_torch_amp_import(module, alias.evaluated_name)
            for alias in statement.names
        )
    if isinstance(statement, cst.Import):
        return any(
            alias.evaluated_alias == assignment.name and _is_torch_amp(alias.evaluated_name)
            for alias in statement.names
        )
    return False


def _uses_torch_through(scope: Scope, statement: cst.Import) -> bool:
    """Whether code reaches `torch` through this import (`torch.cuda.amp.X`, `torch.nn`)."""
    return any(
        assignment.references
        for assignment in scope.assignments
        if isinstance(assignment, ImportAssignment)
        and assignment.node is statement
        and (assignment.name == "torch" or assignment.name.startswith("torch."))
    )


def _torch_bound_elsewhere(scope: Scope, statement: cst.Import) -> bool:
    """Whether another import binds `torch` in this scope or one around it."""
    current: Scope | None = scope
    while current is not None:
        if any(
            isinstance(assignment, ImportAssignment) and assignment.node is not statement
            for assignment in current.assignments["torch"]
        ):
            return True
        parent = current.parent
        current = parent if parent is not current else None
    return False


def _string_annotation_reference(
    unit: Unit, node: cst.SimpleString | cst.ConcatenatedString
) -> Reference:
    """A use inside a string annotation ("GradScaler", "amp.GradScaler")."""
    if unit.kind is Kind.NAME:
        assert unit.alias is not None
        return Reference(node, unit.alias.evaluated_name, Use.ANNOTATION)
    text = node.evaluated_value
    try:
        tree = ast.parse(text, mode="eval") if isinstance(text, str) else None
    except SyntaxError:
        tree = None
    targets = [
        part.attr for part in ast.walk(tree) if isinstance(part, ast.Attribute)
        and isinstance(part.value, ast.Name) and part.value.id == unit.bound_name
    ] if tree is not None else []
    if not targets:
        return Reference(node, "", problem=(
            f"`{unit.bound_name}` ({unit.old_module}) is used in a string this codemod "
            "cannot read: migrate it by hand"
        ))
    lacking = [target for target in targets if target not in MIGRATABLE[unit.device]]
    return Reference(node, (lacking or targets)[0], Use.ANNOTATION)


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


def _call_problem(call: cst.Call, target: str, old: str) -> str | None:
    """Why this call cannot simply gain its device, if it cannot."""
    device_keyword = DEVICE_KEYWORD[target]
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    if any(arg.keyword is not None and arg.keyword.value == device_keyword
           for arg in call.args) or (
        target in ("autocast", "GradScaler") and positional
        and call.args[0] is positional[0] and _names_device(positional[0].value)
    ):
        return (
            f"this call already passes a device, which {old} does not take: make it a "
            f"torch.amp.{target} call by hand"
        )
    if target == "autocast":
        if any(arg.star == "*" for arg in call.args):
            return (
                f"{old}(*args): the positional arguments cannot be mapped onto "
                "torch.amp.autocast's, whose order differs: migrate it by hand"
            )
        if len(positional) > len(AUTOCAST_POSITIONAL):
            return f"{old} takes at most {len(AUTOCAST_POSITIONAL)} positional arguments"
        keywords = {arg.keyword.value for arg in call.args if arg.keyword is not None}
        twice = keywords.intersection(AUTOCAST_POSITIONAL[: len(positional)])
        if twice:
            return f"{old} gets {sorted(twice)[0]} twice here, by position and by keyword"
    return None


def _names_device(value: cst.BaseExpression) -> bool:
    if not isinstance(value, cst.SimpleString):
        return False
    text = value.evaluated_value
    return isinstance(text, str) and text.split(":")[0] in DEVICE_NAMES


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


def _dotted(name: str) -> cst.Attribute | cst.Name:
    expression = cst.parse_expression(name)
    assert isinstance(expression, (cst.Attribute, cst.Name))
    return expression


def _partition_names(
    original: cst.ImportFrom, updated: cst.ImportFrom, moving: Sequence[Unit]
) -> tuple[list[cst.ImportAlias], list[cst.ImportAlias]]:
    """The aliases that move to torch.amp, and those that stay, from the updated import."""
    assert not isinstance(original.names, cst.ImportStar)
    assert not isinstance(updated.names, cst.ImportStar)
    moving_aliases = {id(unit.alias) for unit in moving}
    moved: list[cst.ImportAlias] = []
    kept: list[cst.ImportAlias] = []
    for original_alias, alias in zip(original.names, updated.names, strict=True):
        (moved if id(original_alias) in moving_aliases else kept).append(alias)
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
        names = ", ".join(unit.alias.evaluated_name for unit in units if unit.alias)
        return f"import {names} from torch.amp: {first.old_module} is deprecated"
    return f"import amp from torch: {first.old_module} is deprecated"
