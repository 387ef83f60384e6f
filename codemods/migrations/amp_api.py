"""amp-api: move `torch.cuda.amp` and `torch.cpu.amp` to `torch.amp`, naming the device.

Everything is decided in `check()` on CPython's tree and the shared models: what each
name is bound to and where it is read (the semantic model), how each use looks, which
code is an old-torch fallback, and which replacements the project's torch has (the
project model's torch floor). Each finding says what to change at one node (`data`);
`amp_api_edit` makes those changes with libcst.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from torchfix.model.ast_index import nodes_of, walk
from torchfix.model.ast_names import dotted_name
from torchfix.model.project import Project, is_torch_module_class, register_derived_fact
from torchfix.model.scan_memo import first_answer, parse_if_mentions, project_modules
from torchfix.model.semantic import Binding, Scope
from torchfix.model.torch_shims import NEEDLES as SHIM_NEEDLES
from torchfix.model.torch_shims import replaced_torch_modules
from torchfix.rewrite.contract import Codemod, FileContext, Finding, Option, Safety

from ..spelling import refer

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
# The oldest torch the rewritten code may assume when neither the configuration nor the
# project's metadata says.
DEFAULT_MIN_TORCH = "2.4"
# The torch whose torch.cuda.amp / torch.cpu.amp first warn that they are deprecated.
DEPRECATED_IN = (2, 4)
# torch.cuda.amp.autocast(enabled, dtype, cache_enabled) may take these positionally; the
# torch.amp signature is (device_type, dtype, enabled, cache_enabled), so they become keywords.
AUTOCAST_POSITIONAL = ("enabled", "dtype", "cache_enabled")
# The dtype `torch.<device>.amp.autocast()` fixed when given none.
DEVICE_DTYPE = {"cuda": "float16", "cpu": "bfloat16"}
DTYPE_KEPT = (", dtype={dtype}: the old autocast always meant that dtype, and a model's "
              "method runs inside its callers' autocast, whose dtype torch.amp.autocast "
              "without one would take")
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
_TRY_TYPES: tuple[type, ...] = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))


# -- what the editor is told to do at a node (Finding.data) ----------------------------


@dataclass(frozen=True)
class CallEdit:
    """At a call: pass `device` the way the new API takes it (`autocast("cuda", ...)`,
    with autocast's positional arguments made keywords; `custom_fwd(device_type="cuda",
    ...)`); None: the call already names its device. `shorten`: `torch.cuda.amp.X(...)`
    becomes `torch.amp.X(...)`."""

    target: str  # autocast, GradScaler, custom_fwd or custom_bwd
    device: str | None
    shorten: bool = False
    # `dtype=<this>` added to an autocast call that relied on the old API's fixed dtype
    # ("torch.float16"), where an enclosing autocast may set another (`_model_dtype`)
    dtype: str | None = None


@dataclass(frozen=True)
class DecoratorEdit:
    """At a decorator's name (`@custom_fwd`): `@custom_fwd(device_type="cuda")`."""

    device: str
    shorten: bool = False


@dataclass(frozen=True)
class ShortenEdit:
    """At `torch.cuda.amp.X` (an annotation, an isinstance check): `torch.amp.X`."""


@dataclass(frozen=True)
class MoveImportedNames:
    """At `from torch.cuda.amp import ...` / `from torch.cuda import amp`: these names
    (name, asname) come from torch.amp / torch instead; the others stay (the statement
    is then split in two, the moved names on a line of their own below)."""

    names: tuple[tuple[str, str | None], ...]


@dataclass(frozen=True)
class ReplaceImportedModule:
    """At an alias of `import ...`: import `module` instead; "" removes the alias."""

    module: str


@dataclass(frozen=True)
class RemoveImportLine:
    """At `import torch.cuda.amp`: the statement goes (its comments stay)."""


# -- the codemod ---------------------------------------------------------------------------


class AmpApi(Codemod):
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
    `torch.amp.GradScaler`. A call already written for the new API, which names its
    device (`amp.autocast(device_type="cuda", dtype=torch.float16)`, `GradScaler("cuda")`)
    and fails with the old one, keeps its device and only changes its module.

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
    dtype (or cache setting), or after `torch.set_autocast_dtype`. Where that is likely,
    in a method of an `nn.Module` (which runs inside its callers' autocast), a call that
    names no dtype gets the old one: `dtype=torch.float16` (`torch.bfloat16` on the
    CPU). A call that already
    names its device the new way is moved as it is: with the old API it raised a
    `TypeError` (`device_type=` is not one of its parameters), or, for
    `torch.cuda.amp.autocast("cuda")`, it read "cuda" as a truthy `enabled`, meaning the
    same CUDA autocast `torch.amp.autocast("cuda")` does.

    The replacements need a recent torch: `torch.amp.custom_fwd`/`custom_bwd` with
    `device_type` are new in 2.4, `torch.amp.GradScaler` in 2.3 (`torch.amp.autocast`
    is in every 2.x). A replacement the project's oldest supported torch lacks is
    reported instead of made. That oldest torch is the `min-torch` option of this
    codemod, else the top-level `[tool.torchfix] min-torch`, else the torch requirement
    the project declares (`pyproject.toml`, `setup.cfg`, `setup.py`, `requirements*.txt`,
    a conda `environment.yml`: `torch==2.0.0` or `pytorch=2.1` keeps `custom_fwd` and
    `GradScaler` as they are), else the torch version checks in the project's own code
    (`torch.__version__ >= "1.10"`: it still runs on 1.9), else 2.4.

    An `isinstance`/`issubclass` check against the old `GradScaler` class becomes a check
    against `torch.amp.GradScaler`, which also accepts scalers of other devices; so that
    fix, and every other fix of the same class in the file (checks and constructions must
    move together), is **unsafe**. Checks elsewhere (another file, a library) against
    `torch.cuda.amp.GradScaler` reject the new `torch.amp.GradScaler("cuda")` objects:
    review them.

    Reported and left alone: a deprecated name used as a value (`ctx = autocast if amp
    else nullcontext`, `partial(autocast, ...)`, a base class), because the device
    cannot be added where it is finally called; `autocast(*args)`; a call whose first
    argument looks like a device other than the one the old name implies
    (`autocast(device.type)`: the old API takes it as `enabled`, so the two APIs would
    autocast on different devices), or that passes the device keyword after positional
    arguments; a star import; a name also bound to something else in its scope; a name
    imported but not used in the file, or listed in `__all__` (modules importing it from
    this one call it without a device); a module alias that is also used for something
    torch.amp lacks. Left alone silently: code that already chooses between the two APIs
    (`torch.amp`, `torch.autocast` or `torch.GradScaler` in another branch of the same
    `if`, conditional expression or `try`, e.g. a torch-version check: the old spelling
    there is a deliberate fallback for old torch; a branch that picks a *device*
    instead, like `elif device_type == "cuda":`, is migrated), and names torch.amp has
    no equivalent for (`amp_definitely_not_available`, the `autocast_mode`/`grad_scaler`
    submodules).
    """

    name = "amp-api"
    summary = "Move deprecated torch.cuda.amp / torch.cpu.amp APIs to torch.amp with the device."
    triggers = (b"cuda.amp", b"cpu.amp", b"torch.cuda import", b"torch.cpu import")
    fix_safety = "safe, unsafe"
    family = "migrations"
    editor = ".amp_api_edit:AmpApiEditor"
    options = (
        Option("min-torch", DEFAULT_MIN_TORCH,
               "Oldest torch the code supports; replacements that need a newer one are "
               "reported instead of applied. Unset: [tool.torchfix] min-torch, else the "
               "project's declared torch requirement, else its code's torch version "
               "checks, else 2.4 (then fixes needing torch > 2.0 are unsafe).",
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

    @classmethod
    def check(cls, file: FileContext) -> list[Finding]:
        if file.never_deprecated(DEPRECATED_IN, cls):
            return []  # gravitorch's `torch>=2.0,<2.2` (round 39): warns on none of them
        if file.project.derived(REPLACED_AMP, str(file.project.root)):
            return []  # a shim of the old API: its uses are what it provides (torchada)
        return _Planner(file, *min_torch(file)).findings()


# A project-wide fact: where the project's own code (tests aside) replaces torch.cuda.amp or
# torch.cpu.amp, or the module above one ("name at path:line", "" where it does not).
REPLACED_AMP = "amp-api/replaced-amp"


def replaced_amp(project: Project, root: str) -> str:
    """Where the project's code below `root` replaces a deprecated amp module or a module
    above it (`sys.modules["torch.cuda.amp"] = torch.musa.amp`, `torch.cuda = wrapper`:
    torchada, round 54, whose tests of that replacement round 54's reviewer read as broken
    by the migration): "" where it does not. Only modules holding one of the shim needles
    are parsed; each file's answer is remembered by the scan memo."""
    def scan(path: Path) -> str:
        tree = parse_if_mentions(path, *SHIM_NEEDLES)
        if tree is None:
            return ""
        return next((f"{name} at {path.relative_to(root).as_posix()}:{line}"
                     for name, line in replaced_torch_modules(tree)
                     if any(name == module or name.startswith(module + ".")
                            or module.startswith(name + ".")
                            for module in DEPRECATED_MODULES)), "")

    found = first_answer(project.memo(REPLACED_AMP.replace("/", "-")), project_modules(root),
                         scan)
    return "" if found is None else found[1]


register_derived_fact(REPLACED_AMP, replaced_amp)


def min_torch(file: FileContext) -> tuple[tuple[int, int], str]:
    """The oldest torch the rewritten code must run on, and where that was read ("" for
    the configuration or the built-in default): this codemod's `min-torch`, else the
    top-level one, else the project's torch floor (declared, else from its version checks),
    else 2.4."""
    if "min-torch" in file.options:  # set by the user
        return parse_version(str(file.options["min-torch"])), ""
    found = file.min_torch()
    if found is None:
        return parse_version(DEFAULT_MIN_TORCH), ""
    if file.project.configured_min_torch is not None:
        return found, ""
    floor = file.project.torch_floor()
    return found, floor.source if floor is not None else ""


# -- the plan ----------------------------------------------------------------------------


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


@dataclass(eq=False)
class Reference:
    """One place that names a deprecated object, and how it is used there."""

    node: ast.expr  # the expression naming the object
    target: str  # its name in torch.cuda.amp / torch.cpu.amp
    use: Use = Use.VALUE
    in_string: bool = False  # inside a string annotation: nothing to edit
    problem: str | None = None  # why this use cannot be migrated automatically
    names_device: bool = False  # a call that already passes its device (new API style)


@dataclass(eq=False)
class Unit:
    """What migrates together: an imported name or module with all its references, or
    one qualified reference. Either every edit of a unit is made or none is."""

    kind: Kind
    device: str
    references: list[Reference] = field(default_factory=list)
    statement: ast.Import | ast.ImportFrom | None = None
    alias: ast.alias | None = None
    problems: list[tuple[ast.AST, str]] = field(default_factory=list)  # "": stay silent
    fallback: bool = False  # the old spelling is a deliberate fallback for old torch
    bound_elsewhere: bool = False  # the name has other bindings in its scope
    unsafe_reason: str | None = None
    migrates: bool = False  # decided: every edit of the unit is a finding

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

    @property
    def suffix(self) -> str:
        return f" (unsafe: {self.unsafe_reason})" if self.unsafe_reason else ""


class _Planner:
    """Units from the file's imports and names, judged; then one finding per change."""

    def __init__(self, file: FileContext, minimum: tuple[int, int], source: str) -> None:
        self.file = file
        self.model = file.semantic
        self.minimum = minimum
        self.minimum_source = source
        self._holding: set[int] | None = None
        self._string_names: list[tuple[ast.Name, ast.AST | None, Scope]] | None = None

    def findings(self) -> list[Finding]:
        units = [*self._import_units(), *self._qualified_units()]
        _couple_class_checks(units)
        for unit in units:
            self._judge(unit)
        self._decide(units)
        findings: list[Finding] = []
        for unit in units:
            findings += self._unit_findings(unit)
        findings += self._import_from_findings(units)
        findings += self._plain_import_findings(units)
        return findings

    # units

    def _import_statements(self) -> list[ast.Import | ast.ImportFrom]:
        statements: list[ast.Import | ast.ImportFrom] = [
            *nodes_of(self.file.tree, ast.Import), *nodes_of(self.file.tree, ast.ImportFrom)]
        return sorted(statements, key=lambda s: (s.lineno, s.col_offset))

    def _import_units(self) -> Iterator[Unit]:
        for statement in self._import_statements():
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
                        yield self._bound_unit(Kind.NAME, DEPRECATED_MODULES[module],
                                               statement, alias)
                elif module in DEVICE_PACKAGES:
                    for alias in statement.names:
                        if alias.name == "amp":
                            yield self._bound_unit(Kind.MODULE, DEVICE_PACKAGES[module],
                                                   statement, alias)
            else:
                for alias in statement.names:
                    if alias.name in DEPRECATED_MODULES and alias.asname is not None:
                        yield self._bound_unit(Kind.MODULE, DEPRECATED_MODULES[alias.name],
                                               statement, alias)

    def _binding(self, alias: ast.alias, name: str) -> Binding | None:
        scope = self.model.scope_of(alias)
        for binding in [*scope.local(name), *self.model.module_scope.local(name)]:
            if binding.node is alias:
                return binding
        return None

    def _bound_unit(self, kind: Kind, device: str, statement: ast.Import | ast.ImportFrom,
                    alias: ast.alias) -> Unit:
        """An imported name or module with every read that sees this import."""
        unit = Unit(kind, device, statement=statement, alias=alias)
        bound = unit.bound_name
        binding = self._binding(alias, bound)
        if binding is None:  # pragma: no cover - every import alias binds its name
            unit.problems.append((alias, ""))
            return unit
        others = [other for other in binding.scope.local(bound) if other is not binding]
        if others:
            unit.bound_elsewhere = True
            if any(other.is_import and _is_torch_amp(other.qualified_name or "")
                   for other in others):
                unit.fallback = True  # try: from torch.amp import X / except: from torch.cuda.amp
            else:
                line = min(other.line for other in others) or None
                where = f" (line {line})" if line else ""
                deprecated = kind is Kind.MODULE or alias.name in MIGRATABLE[device]
                unit.problems.append((alias, (
                    f"`{bound}` is also bound to something else in this scope{where}: "
                    "migrate it to torch.amp by hand"
                ) if deprecated else ""))
            return unit
        for name in self.model.references(binding):
            unit.references.append(
                self._bound_reference(unit, name, self.model.parent(name), in_string=False))
        for name, parent, scope in self._names_in_strings():
            if name.id == bound and self.model.resolving_scope(bound, scope) is binding.scope:
                unit.references.append(self._bound_reference(unit, name, parent, in_string=True))
        return unit

    def _names_in_strings(self) -> list[tuple[ast.Name, ast.AST | None, Scope]]:
        """The names read by string annotations, with their parent in the string's
        expression and the scope they resolve in."""
        if self._string_names is None:
            self._string_names = []
            for constant, expression in self.model.string_annotations():
                scope = self.model.scope_of(constant)
                for node, parent in _with_parents(expression):
                    if isinstance(node, ast.Name):
                        self._string_names.append((node, parent, scope))
        return self._string_names

    def _bound_reference(self, unit: Unit, node: ast.Name, parent: ast.AST | None,
                         in_string: bool) -> Reference:
        if unit.kind is Kind.NAME:
            assert unit.alias is not None
            return self._classified(Reference(node, unit.alias.name, in_string=in_string), unit)
        if not (isinstance(parent, ast.Attribute) and parent.value is node):
            return Reference(node, "", in_string=in_string, problem=(
                f"`{unit.bound_name}` ({unit.old_module}) is used as a value here, so it "
                "must stay bound to the deprecated module: migrate its uses by hand"
            ))
        return self._classified(Reference(parent, parent.attr, in_string=in_string), unit)

    def _qualified_units(self) -> Iterator[Unit]:
        """`torch.cuda.amp.X`, where `torch` is the torch package."""
        for node in nodes_of(self.file.tree, ast.Attribute):
            if not _is_device_amp(node):
                continue
            reference = self.model.parent(node)
            if not (isinstance(reference, ast.Attribute) and reference.value is node):
                continue
            device_package = node.value
            assert isinstance(device_package, ast.Attribute)
            if self.model.qualified_name(device_package.value) != "torch":
                continue
            unit = Unit(Kind.QUALIFIED, device_package.attr)
            unit.references.append(self._classified(Reference(reference, reference.attr), unit))
            yield unit

    # judging

    def _classified(self, reference: Reference, unit: Unit) -> Reference:
        """How the reference is used, and whether that use can be migrated."""
        node = reference.node
        parent = None if reference.in_string else self.model.parent(node)
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
            self._judge_call(reference, parent, unit.device, old)
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

    def _judge_call(self, reference: Reference, call: ast.Call, device: str, old: str) -> None:
        """Whether this call can gain its device, or already has it, or neither."""
        target = reference.target
        keywords = {kw.arg for kw in call.keywords if kw.arg is not None}
        first = call.args[0] if call.args else None
        by_hand = (f"this call already passes a device, which {old} does not take: make it "
                   f"a torch.amp.{target} call by hand")
        if DEVICE_KEYWORD[target] in keywords:
            # Written for torch.amp (the old API rejects the keyword): it only needs the
            # new module, unless positional arguments would now land on the device too.
            if call.args and target in ("autocast", "GradScaler"):
                reference.problem = by_hand
            else:
                reference.names_device = True
            return
        if target in ("autocast", "GradScaler") and first is not None:
            if self.model.literal(first) == device:
                # `autocast("cuda")`: the old API took "cuda" as a truthy `enabled` (or an
                # init_scale); torch.amp reads the same device from it.
                reference.names_device = True
                return
            if _names_a_device(first):
                reference.problem = by_hand
                return
        if target == "autocast":
            positional = [arg for arg in call.args if not isinstance(arg, ast.Starred)]
            if len(positional) < len(call.args):
                reference.problem = (
                    f"{old}(*args): the positional arguments cannot be mapped onto "
                    "torch.amp.autocast's, whose order differs: migrate it by hand"
                )
            elif len(positional) > len(AUTOCAST_POSITIONAL):
                reference.problem = (
                    f"{old} takes at most {len(AUTOCAST_POSITIONAL)} positional arguments")
            else:
                twice = keywords.intersection(AUTOCAST_POSITIONAL[: len(positional)])
                if twice:
                    reference.problem = (
                        f"{old} gets {sorted(twice)[0]} both by position and by keyword here "
                        "(is the first argument meant to be a device?): migrate it by hand"
                    )

    def _in_annotation(self, node: ast.AST) -> bool:
        child = node
        for parent in self.model.ancestors(node):
            if isinstance(parent, (ast.arg, ast.AnnAssign)):
                return parent.annotation is child
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return parent.returns is child
            if isinstance(parent, (ast.Call, ast.Lambda, ast.stmt)):
                return False
            child = parent
        return False

    def _in_class_check(self, node: ast.AST) -> bool:
        parent = self.model.parent(node)
        argument: ast.AST = node
        if isinstance(parent, ast.Tuple):  # isinstance(x, (GradScaler, ShardedGradScaler))
            argument, parent = parent, self.model.parent(parent)
        return (
            isinstance(parent, ast.Call)
            and isinstance(parent.func, ast.Name)
            and parent.func.id in CLASS_CHECKS
            and not self.model.bindings(parent.func)  # the builtin
            and len(parent.args) == 2
            and not parent.keywords
            and parent.args[1] is argument
        )

    def _judge(self, unit: Unit) -> None:
        """Note what stops a unit from migrating, and whether it is an old-torch fallback."""
        anchors: list[ast.AST] = [unit.statement] if unit.statement is not None else []
        anchors += [reference.node for reference in unit.references if not reference.in_string]
        if unit.fallback or any(self._in_fallback(node) for node in anchors):
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
        if not unit.references or unit.bound_name in self.model.exported_names():
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
        minimum = self.minimum
        where = f", from {self.minimum_source}" if self.minimum_source else ""
        for target in targets:
            since = SINCE.get(target)
            if since is not None and since > minimum:
                # The floor keeps the old spelling: how a migration would go by hand at
                # this same place is moot, so only one report stands there.
                unit.problems[:] = [(other, message) for other, message in unit.problems
                                    if other is not node or not message]
                unit.problems.append((node, (
                    f"{unit.old_module}.{target} is deprecated, but torch.amp.{target} needs "
                    f"torch >= {since[0]}.{since[1]} (min-torch is {minimum[0]}.{minimum[1]}"
                    f"{where}): keep it, or choose by torch version by hand"
                )))
            elif since is not None and "min-torch" not in self.file.options:
                predates = self.file.era_predates(since, f"torch.amp.{target}")
                if predates:  # made for an older torch: pytorch-sconce, round 48
                    unit.problems[:] = [(other, message) for other, message in unit.problems
                                        if other is not node or not message]
                    unit.problems.append((node, (
                        f"{unit.old_module}.{target} is deprecated, but {predates}: keep "
                        "it, or choose by torch version by hand")))
                    continue
                undeclared = self.file.undeclared_floor(since, f"torch.amp.{target}")
                if undeclared and unit.unsafe_reason is None:
                    unit.unsafe_reason = undeclared

    def _in_fallback(self, node: ast.AST) -> bool:
        """Whether another branch of an enclosing if / conditional expression / try (or
        its condition) uses torch.amp: the old spelling here then serves old torch."""
        holding = self._amp_holders()
        child = node
        for parent in self.model.ancestors(node):
            if isinstance(parent, (ast.If, ast.IfExp)):
                branches = [[parent.test], _as_list(parent.body), _as_list(parent.orelse)]
                if _other_branch_holds(branches, child, holding) and not _is_device_dispatch(
                    parent.test
                ):
                    return True
            elif isinstance(parent, _TRY_TYPES):
                branches = [parent.body, parent.handlers, parent.orelse,  # type: ignore[attr-defined]
                            parent.finalbody]  # type: ignore[attr-defined]
                if _other_branch_holds(branches, child, holding):
                    return True
            child = parent
        return False

    def _amp_holders(self) -> set[int]:
        """The nodes that contain a use of torch.amp (and their ancestors)."""
        if self._holding is not None:
            return self._holding
        mentions: list[ast.AST] = [
            statement for statement in self._import_statements()
            if _imports_torch_amp(statement)
        ]
        # Only names an import binds to torch or to a torch.amp object can mention it.
        names = {
            binding.name for binding in self.model.imported_names()
            if binding.qualified_name == "torch" or _is_torch_amp(binding.qualified_name or "")
        }
        for load, _ in self.model.loads:
            if load.id not in names:
                continue
            parent = self.model.parent(load)
            if (
                isinstance(parent, ast.Attribute)
                and parent.attr in ("amp", "autocast", "GradScaler")
                and self.model.qualified_name(load) == "torch"
            ) or any(binding.is_import and _is_torch_amp(binding.qualified_name or "")
                     for binding in self.model.bindings(load)):
                mentions.append(load)
        holding: set[int] = set()
        for mention in mentions:
            holding.add(id(mention))
            for ancestor in self.model.ancestors(mention):
                if id(ancestor) in holding:
                    break
                holding.add(id(ancestor))
        self._holding = holding
        return holding

    # deciding

    def _decide(self, units: Sequence[Unit]) -> None:
        """Which units migrate; a from-import that only partly moves must be splittable."""
        for unit in units:
            if unit.fallback or unit.problems:
                continue
            if self._suppressed(self._edit_nodes(unit)):
                # One suppressed edit holds back the unit's others: half a migration breaks.
                unit.problems.append((unit.statement or unit.references[0].node, ""))
                continue
            unit.migrates = True
        for statement, statement_units in _by_statement(units, ast.ImportFrom):
            moving = [unit for unit in statement_units if unit.migrates]
            whole = (len(moving) == len(statement.names)
                     and len({unit.safety for unit in moving}) == 1)
            if not moving or whole or self._splittable(statement):
                continue
            for unit in moving:  # `x = 1; from torch.cuda.amp import ...` cannot be split
                unit.migrates = False
                unit.problems.append((statement, (
                    "this import mixes names that move to torch.amp with names that stay: "
                    "split it by hand"
                )))

    def _suppressed(self, nodes: Iterable[ast.AST]) -> bool:
        return any(self.file.suppressed(AmpApi.name, node) for node in nodes)

    def _edit_nodes(self, unit: Unit) -> list[ast.AST]:
        """The nodes a unit's findings change."""
        nodes: list[ast.AST] = []
        if isinstance(unit.statement, ast.ImportFrom):
            nodes.append(unit.statement)
        elif unit.statement is not None and unit.alias is not None:
            nodes.append(unit.alias)
        for reference in unit.references:
            if reference.in_string:
                continue
            if reference.use is Use.CALL:
                if not reference.names_device or unit.kind is Kind.QUALIFIED:
                    nodes.append(self.model.parent(reference.node))  # type: ignore[arg-type]
            elif reference.use is Use.DECORATOR or unit.kind is Kind.QUALIFIED:
                nodes.append(reference.node)
        return nodes

    def _splittable(self, statement: ast.ImportFrom) -> bool:
        """Only an import that is the one statement on its line(s) can become two lines."""
        siblings = self._siblings(statement)
        return siblings is not None and self._alone_on_its_lines(statement, siblings)

    def _siblings(self, statement: ast.stmt) -> list[ast.stmt] | None:
        """The statement list (body, else, finally...) that holds the statement."""
        found = self.model.block_of(statement)
        return found[0] if found is not None else None

    def _alone_on_its_lines(self, statement: ast.stmt, siblings: list[ast.stmt]) -> bool:
        """Not `a = 1; import x`, nor `if c: import x`."""
        index = next(i for i, sibling in enumerate(siblings) if sibling is statement)
        before = siblings[index - 1] if index else None
        after = siblings[index + 1] if index + 1 < len(siblings) else None
        end = statement.end_lineno or statement.lineno
        parent = self.model.parent(statement)
        return (
            (before is None or (before.end_lineno or before.lineno) < statement.lineno)
            and (after is None or after.lineno > end)
            and getattr(parent, "lineno", -1) != statement.lineno
        )

    # findings

    def _unit_findings(self, unit: Unit) -> Iterator[Finding]:
        if unit.fallback:
            return
        for node, message in unit.problems:
            if message:
                yield Finding(node, message, Safety.MANUAL)
        if not unit.migrates:
            return
        safety, suffix = unit.safety, unit.suffix
        if isinstance(unit.statement, ast.Import) and unit.alias is not None:
            yield Finding(unit.alias, f"import torch.amp instead of the deprecated "
                          f"{unit.alias.name}{suffix}", safety,
                          data=ReplaceImportedModule("torch.amp"))
        shorten = unit.kind is Kind.QUALIFIED
        for reference in unit.references:
            if reference.in_string:
                continue
            target = reference.target
            if reference.use is Use.CALL:
                call = self.model.parent(reference.node)
                assert isinstance(call, ast.Call)
                if not reference.names_device:
                    dtype = self._model_dtype(call, unit) if target == "autocast" else None
                    message = _call_message(unit, target) + (
                        DTYPE_KEPT.format(dtype=dtype) if dtype else "")
                    yield Finding(call, message + suffix, safety,
                                  data=CallEdit(target, unit.device, shorten, dtype))
                elif shorten:  # already names its device: only the module changes
                    yield Finding(call, _name_message(unit, target) + suffix, safety,
                                  data=CallEdit(target, None, shorten))
            elif reference.use is Use.DECORATOR:
                yield Finding(reference.node, _call_message(unit, target) + suffix, safety,
                              data=DecoratorEdit(unit.device, shorten))
            elif shorten:
                yield Finding(reference.node, _name_message(unit, target) + suffix, safety,
                              data=ShortenEdit())

    def _model_dtype(self, call: ast.Call, unit: Unit) -> str | None:
        """The dtype the old autocast fixed (`torch.float16` for CUDA, `torch.bfloat16` for
        the CPU), spelled as the module names torch, where the call is in a method of an
        nn.Module and names no dtype: a model's forward runs inside its callers' autocast,
        whose dtype `torch.amp.autocast` without one takes (open-metric-learning's ViT
        blocks under its own float32 `inference()`, round 40). None elsewhere: a training
        loop's autocast is the outermost, and the two APIs agree there."""
        if any(keyword.arg == "dtype" for keyword in call.keywords) or len(call.args) >= 2 \
                or any(keyword.arg is None for keyword in call.keywords):
            return None
        enabled = call.args[0] if call.args else next(
            (keyword.value for keyword in call.keywords if keyword.arg == "enabled"), None)
        if enabled is not None and self.model.literal(enabled) is False:
            return None
        function = self.model.enclosing_function(call)
        owner = self.model.parent(function) if function is not None else None
        if not isinstance(owner, ast.ClassDef) or not self._is_nn_module(owner):
            return None
        # spelled through what the file imports (`torch`, `th`); the editor adds no import
        spelled = refer(self.file, call, f"torch.{DEVICE_DTYPE[unit.device]}")
        return spelled.text if spelled is not None and not spelled.imports else None

    def _is_nn_module(self, owner: ast.ClassDef) -> bool:
        """Whether the class derives from torch.nn.Module, through the project's classes."""
        project = self.file.project
        for base in owner.bases:
            name = self.model.qualified_name(base)
            if name is None:
                continue
            if any(is_torch_module_class(found) for found in (name, *project.ancestors(name))
                   if found is not None):
                return True
        return False

    def _import_from_findings(self, units: Sequence[Unit]) -> Iterator[Finding]:
        """One finding per from-import and safety: the names that move together."""
        for statement, statement_units in _by_statement(units, ast.ImportFrom):
            for safety in (Safety.SAFE, Safety.UNSAFE):
                moving = [unit for unit in statement_units
                          if unit.migrates and unit.safety is safety]
                if not moving:
                    continue
                suffix = next((unit.suffix for unit in moving if unit.suffix), "")
                names = tuple((unit.alias.name, unit.alias.asname)
                              for unit in moving if unit.alias is not None)
                yield Finding(statement, _import_message(moving) + suffix, safety,
                              data=MoveImportedNames(names))

    def _plain_import_findings(self, units: Sequence[Unit]) -> Iterator[Finding]:
        """`import torch.cuda.amp` goes once every use of the module has moved."""
        for module, device in DEPRECATED_MODULES.items():
            uses = [unit for unit in units if unit.kind is Kind.QUALIFIED and unit.device == device]
            if not uses or not all(unit.migrates for unit in uses) or self._module_still_used(
                device
            ):
                continue
            # It goes when they move: with the unsafe ones, only under --unsafe-fixes.
            unsafe = next((unit for unit in uses if unit.unsafe_reason), None)
            safety = unsafe.safety if unsafe is not None else Safety.SAFE
            suffix = unsafe.suffix if unsafe is not None else ""
            for statement in nodes_of(self.file.tree, ast.Import):
                for alias in statement.names:
                    if alias.asname is None and alias.name == module:
                        finding = self._plain_import_finding(statement, alias, safety, suffix)
                        if finding is not None:
                            yield finding

    def _plain_import_finding(self, statement: ast.Import, alias: ast.alias, safety: Safety,
                              suffix: str) -> Finding | None:
        binding = self._binding(alias, "torch")
        if binding is None:  # pragma: no cover - `import torch.x` binds torch
            return None
        others_bind_torch = any(
            other is not binding and isinstance(other.node, ast.alias)
            for scope in _scope_chain(binding.scope)
            for other in scope.local("torch")
        )
        if not others_bind_torch and self.model.references(binding):
            return Finding(alias, f"`import torch` replaces `import {alias.name}`, which "
                           f"nothing uses after the move to torch.amp{suffix}", safety,
                           data=ReplaceImportedModule("torch"))
        removed = (f"remove `import {alias.name}`: nothing uses it after the move to "
                   f"torch.amp{suffix}")
        if len(statement.names) > 1:
            return Finding(alias, removed, safety, data=ReplaceImportedModule(""))
        if self._removable(statement):
            return Finding(statement, removed, safety, data=RemoveImportLine())
        return None

    def _module_still_used(self, device: str) -> bool:
        """Whether `torch.<device>.amp` appears other than as `torch.<device>.amp.<migrated>`
        (a string annotation naming it needs the import too)."""
        for node in nodes_of(self.file.tree, ast.Attribute):
            if not (_is_device_amp(node) and node.value.attr == device):  # type: ignore[attr-defined]
                continue
            use = self.model.parent(node)
            if not (isinstance(use, ast.Attribute) and use.value is node
                    and use.attr in MIGRATABLE[device]):
                return True
        for _, expression in self.model.string_annotations():
            if any(isinstance(node, ast.Attribute) and _is_device_amp(node)
                   and node.value.attr == device  # type: ignore[attr-defined]
                   for node in ast.walk(expression)):
                return True
        return False

    def _removable(self, statement: ast.Import) -> bool:
        """A whole line can go if it holds only this import and the block keeps a
        statement."""
        siblings = self._siblings(statement)
        return (
            siblings is not None and len(siblings) > 1
            and self._alone_on_its_lines(statement, siblings)
        )


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
        qualified_name in ("torch.amp", "torch.autocast", "torch.GradScaler")
        or qualified_name.startswith("torch.amp.")
    )


def _imports_torch_amp(statement: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(statement, ast.ImportFrom):
        module = statement.module or ""
        return statement.level == 0 and any(
            _is_torch_amp(module) or (module == "torch" and alias.name in ("amp", "autocast"))
            for alias in statement.names
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


def _with_parents(expression: ast.expr) -> Iterator[tuple[ast.AST, ast.AST | None]]:
    stack: list[tuple[ast.AST, ast.AST | None]] = [(expression, None)]
    while stack:
        node, parent = stack.pop()
        yield node, parent
        stack.extend((child, node) for child in ast.iter_child_nodes(node))


def _scope_chain(scope: Scope) -> Iterator[Scope]:
    current: Scope | None = scope
    while current is not None:
        yield current
        current = current.parent


def _by_statement(units: Sequence[Unit], kind: type[ast.ImportFrom]
                  ) -> list[tuple[ast.ImportFrom, list[Unit]]]:
    """The units of each statement of this kind, statements in order."""
    grouped: dict[int, tuple[ast.ImportFrom, list[Unit]]] = {}
    for unit in units:
        if isinstance(unit.statement, kind):
            grouped.setdefault(id(unit.statement), (unit.statement, []))[1].append(unit)
    return list(grouped.values())


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


def _names_a_device(argument: ast.expr) -> bool:
    """`"cuda"`, `"cuda:0"`, `device_type`, `self.device.type`: not an `enabled` flag or
    an `init_scale`, which is what the deprecated APIs take first."""
    if isinstance(argument, ast.Constant):
        return isinstance(argument.value, str) and argument.value.split(":")[0] in DEVICE_NAMES
    if isinstance(argument, ast.IfExp):  # `device.type if device.type == "xpu" else "cuda"`
        return _names_a_device(argument.body) or _names_a_device(argument.orelse)
    name = dotted_name(argument)
    return name is not None and any("device" in part.lower() for part in name.split(".")[-2:])


def _call_message(unit: Unit, target: str) -> str:
    if target in ("custom_fwd", "custom_bwd"):
        return (f'{unit.old_module}.{target} is deprecated: use '
                f'torch.amp.{target}(device_type="{unit.device}")')
    return (f'{unit.old_module}.{target}(...) is deprecated: use '
            f'torch.amp.{target}("{unit.device}", ...)')


def _name_message(unit: Unit, target: str) -> str:
    return f"{unit.old_module}.{target} is deprecated: use torch.amp.{target}"


def _import_message(units: Sequence[Unit]) -> str:
    first = units[0]
    if first.kind is Kind.NAME:
        names = ", ".join(unit.alias.name for unit in units if unit.alias)
        return f"import {names} from torch.amp: {first.old_module} is deprecated"
    return f"import amp from torch: {first.old_module} is deprecated"

