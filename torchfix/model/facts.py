"""What one module tells the rest of the project: its classes, functions and constants.

Read from CPython's tree through the module's semantic model, so every name in it is
qualified (`bases=("torch.nn.Module",)`, not `("nn.Module",)`). Plain data: it is
compared, cached and sent to worker processes as it is.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from torchfix.model.semantic import NOT_LITERAL, BindingKind, Scope, SemanticModel


class ParameterKind(enum.Enum):
    POSITIONAL_ONLY = "positional-only"
    POSITIONAL = "positional"
    KEYWORD_ONLY = "keyword-only"
    VAR_POSITIONAL = "var-positional"
    VAR_KEYWORD = "var-keyword"


@dataclass(frozen=True)
class Parameter:
    """One parameter of a project function."""

    name: str
    kind: ParameterKind
    has_default: bool = False
    # The default as written, where it is a literal (`True`, `None`, `0.5`); None for no
    # default or one that is an expression.
    literal_default: str | None = None


def _literal(default: ast.expr | None) -> str | None:
    return repr(default.value) if isinstance(default, ast.Constant) else None


@dataclass(frozen=True)
class Signature:
    """The parameters of a def (`self` included for methods)."""

    parameters: tuple[Parameter, ...]
    returns: str | None = None  # the qualified name of the return annotation, if any

    def accepts_keyword(self, name: str) -> bool:
        """Whether `name=...` can be passed (a named parameter or `**kwargs`)."""
        return any(
            (p.name == name and p.kind in (ParameterKind.POSITIONAL, ParameterKind.KEYWORD_ONLY))
            or p.kind is ParameterKind.VAR_KEYWORD
            for p in self.parameters
        )

    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.parameters)

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)

    @classmethod
    def of(cls, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
           model: SemanticModel | None = None) -> Signature:
        arguments = node.args
        with_defaults = len(arguments.defaults)
        positional = [*arguments.posonlyargs, *arguments.args]
        first_default = len(positional) - with_defaults
        defaults: list[ast.expr | None] = [None] * first_default + list(arguments.defaults)
        parameters = [
            Parameter(arg.arg,
                      ParameterKind.POSITIONAL_ONLY if index < len(arguments.posonlyargs)
                      else ParameterKind.POSITIONAL,
                      index >= first_default, _literal(defaults[index]))
            for index, arg in enumerate(positional)
        ]
        if arguments.vararg is not None:
            parameters.append(Parameter(arguments.vararg.arg, ParameterKind.VAR_POSITIONAL))
        parameters += [
            Parameter(arg.arg, ParameterKind.KEYWORD_ONLY, default is not None,
                      _literal(default))
            for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
        ]
        if arguments.kwarg is not None:
            parameters.append(Parameter(arguments.kwarg.arg, ParameterKind.VAR_KEYWORD))
        returns = None
        if model is not None and not isinstance(node, ast.Lambda):
            returns = model.qualified_name(node.returns)
        return cls(tuple(parameters), returns)


@dataclass(frozen=True)
class ClassFacts:
    """What a project class defines: its bases, methods and attributes."""

    qualified_name: str
    # The qualified name of each base; None where a base is not a plain name (`Base[T]`
    # keeps its subscripted name, `make_base()` is None).
    bases: tuple[str | None, ...]
    methods: Mapping[str, Signature] = field(default_factory=dict)
    # `self.<name> = Ctor(...)` in its methods, and `name: T` in its body: the qualified
    # names of what each attribute is built from or annotated with (None: unknown).
    attributes: Mapping[str, tuple[str | None, ...]] = field(default_factory=dict)
    line: int = 0


@dataclass(frozen=True)
class ModuleFacts:
    """What a project module defines, with the digest of the file it was read from."""

    name: str
    path: str
    digest: str  # of the file's bytes: the facts are valid while it stays the same
    classes: Mapping[str, ClassFacts] = field(default_factory=dict)  # "Outer.Inner" too
    functions: Mapping[str, Signature] = field(default_factory=dict)
    constants: Mapping[str, Any] = field(default_factory=dict)  # literal values
    # Names bound by imports or `Alias = Other` at module level: their qualified targets.
    names: Mapping[str, str] = field(default_factory=dict)
    star_imports: tuple[str, ...] = ()


def module_facts(model: SemanticModel, path: str, digest: str) -> ModuleFacts:
    """Everything `model`'s module defines at its top level (and in its classes)."""
    scope = model.module_scope
    classes: dict[str, ClassFacts] = {}
    functions: dict[str, Signature] = {}
    constants: dict[str, Any] = {}
    names: dict[str, str] = {}
    prefix = model.module or ""
    for name, bindings in scope.bindings.items():
        if len(bindings) != 1:
            continue  # rebound (or conditionally bound): not a fact to rely on
        binding = bindings[0]
        if binding.kind is BindingKind.CLASS:
            _collect_classes(model, binding.node, name, prefix, classes)  # type: ignore[arg-type]
        elif binding.kind is BindingKind.FUNCTION:
            functions[name] = Signature.of(binding.node, model)  # type: ignore[arg-type]
        elif binding.is_import and binding.qualified_name is not None:
            names[name] = binding.qualified_name
        elif binding.kind is BindingKind.ASSIGNMENT and not binding.augmented:
            value = model.literal(binding.value)
            if value is not NOT_LITERAL:
                constants[name] = value
            elif isinstance(binding.value, (ast.Name, ast.Attribute)):
                target = model.qualified_name(binding.value)
                if target is not None:
                    names[name] = target  # Alias = OtherClass
    return ModuleFacts(model.module or "", path, digest, classes, functions, constants, names,
                       tuple(scope.star_imports))


def _collect_classes(model: SemanticModel, node: ast.ClassDef, local_name: str, prefix: str,
                     classes: dict[str, ClassFacts]) -> None:
    qualified = f"{prefix}.{local_name}" if prefix else local_name
    bases = tuple(_base_name(model, base) for base in node.bases)
    methods: dict[str, Signature] = {}
    attributes: dict[str, list[str | None]] = {}
    inner = model.scope_created_by(node)
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            methods[statement.name] = Signature.of(statement, model)
            _self_attributes(model, statement, attributes)
        elif isinstance(statement, ast.ClassDef):
            _collect_classes(model, statement, f"{local_name}.{statement.name}", prefix, classes)
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            attributes.setdefault(statement.target.id, []).append(
                _annotation_name(model, statement.annotation))
    if inner is not None:
        _class_level_aliases(inner, methods)
    classes[local_name] = ClassFacts(
        qualified, bases, methods,
        {name: tuple(values) for name, values in attributes.items()}, node.lineno,
    )


def _class_level_aliases(scope: Scope, methods: dict[str, Signature]) -> None:
    # `load_state_dict = other_method` in a class body: the same signature.
    for name, bindings in scope.bindings.items():
        if name in methods or len(bindings) != 1:
            continue
        value = bindings[0].value
        if isinstance(value, ast.Name) and value.id in methods:
            methods[name] = methods[value.id]


def _base_name(model: SemanticModel, base: ast.expr) -> str | None:
    if isinstance(base, ast.Subscript):  # Generic[T], Base[Config]
        base = base.value
    return model.qualified_name(base)


def _annotation_name(model: SemanticModel, annotation: ast.expr | None) -> str | None:
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return None  # a string annotation: resolved by the codemods that need it
    if isinstance(annotation, ast.Subscript):  # Optional[Net], list[Net]: not a Net itself
        return None
    return model.qualified_name(annotation)


def _self_attributes(model: SemanticModel, method: ast.FunctionDef | ast.AsyncFunctionDef,
                     attributes: dict[str, list[str | None]]) -> None:
    scope = model.scope_created_by(method)
    if scope is None or not method.args.args:
        return
    receiver = method.args.args[0].arg  # `self`, whatever it is called
    for statement in model.attribute_assignments(scope):  # the method's own statements
        if isinstance(statement, ast.Assign):
            target, value, annotation = statement.targets[0], statement.value, None
        else:
            target, value, annotation = statement.target, statement.value, statement.annotation
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == receiver):
            continue
        if annotation is not None:
            attributes.setdefault(target.attr, []).append(_annotation_name(model, annotation))
        if value is not None:
            attributes.setdefault(target.attr, []).append(constructed_name(model, value))


def constructed_name(model: SemanticModel, value: ast.expr) -> str | None:
    """The qualified name of what builds `value` (`Foo(...)`, `Foo(...).to(device)`)."""
    while (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in _SELF_RETURNING_METHODS
        and isinstance(value.func.value, ast.Call)
    ):
        value = value.func.value
    if isinstance(value, ast.Call):
        return model.qualified_name(value.func)
    return None


# Methods of nn.Module (and tensors) that return the object they are called on.
_SELF_RETURNING_METHODS = frozenset(
    {"bfloat16", "cpu", "cuda", "double", "eval", "float", "half", "requires_grad_", "to",
     "train", "share_memory"}
)
