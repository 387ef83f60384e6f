"""typing-any: the builtin `any` used as a type annotation → `typing.Any`."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.model.semantic import SemanticModel
from torchfix.rewrite.contract import AddImport, Codemod, FileContext, Finding, ReplaceNode, Safety

MESSAGE = "`any` is the builtin function, not a type: annotate with `typing.Any`"
# Libraries that read class annotations at run time to validate values.
VALIDATING_LIBRARIES = ("pydantic", "msgspec", "attr", "attrs", "marshmallow", "sqlmodel",
                        "beanie", "odmantic", "ormar")
TYPING_ANY = ("typing.Any", "typing_extensions.Any")


class TypingAny(Codemod):
    """Annotate with `typing.Any`, not the builtin `any`.

    ## What it does
    Replaces the builtin function `any` where it is used as a type annotation (a
    parameter, a return type, a variable, and inside `Optional[...]`, `dict[str, ...]`,
    `... | None`) with `Any`, importing it from `typing` when the file does not already.

    ## Why
    `x: any` reads like "anything goes" but names the builtin `any()` function: type
    checkers reject it (or, worse, check the value against a function type), IDEs lose
    completion, and readers cannot tell whether the author meant `Any` or a forgotten
    type. It is a typo that survives because Python evaluates the annotation without
    complaint.

    ## Example
    ```python
    def emit_diagnostics(hub: any, step: int) -> dict[str, any]:
        ...
    ```
    becomes
    ```python
    from typing import Any

    def emit_diagnostics(hub: Any, step: int) -> dict[str, Any]:
        ...
    ```

    ## Fix safety
    The fix is **safe**: it changes only what an annotation names, and `typing.Any` is
    what such an annotation means. Where the file binds `Any` to something else, the fix
    writes `typing.Any` (importing `typing`). It is **unsafe** for fields of classes that a
    validation library reads at run time (pydantic, attrs, msgspec, ...): there the
    annotation decides what values are accepted. `any` rebound in the file, and string
    annotations (`"any"`), are left alone.
    """

    name = "typing-any"
    summary = "Annotate with typing.Any, not the builtin any()."
    # `any` where an annotation can hold it (the prefilter; the tree decides).
    triggers = (b": any", b":any", b"->any", b"-> any", b"[any", b", any", b"|any", b"| any",
                b"any|", b"any |")
    fix_safety = "safe, unsafe"
    family = "correctness"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {name.lineno for name, _ in _annotation_names(tree)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        for name, owner in _annotation_names(file.tree):
            if model.qualified_name(name) != "builtins.any":
                continue
            replacement = _replacement(model, name)
            if replacement is None:
                yield Finding(name, f"{MESSAGE} (`Any` and `typing` are both taken here)",
                              Safety.MANUAL)
                continue
            code, imports = replacement
            edits = (ReplaceNode(name, code), *imports)
            if _validated_field(model, owner):
                yield Finding(name, f"{MESSAGE} (this class's annotations are read at run "
                              "time: the field will accept any value)", Safety.UNSAFE, edits)
            else:
                yield Finding(name, MESSAGE, Safety.SAFE, edits)


def _annotation_names(tree: ast.Module) -> list[tuple[ast.Name, ast.AST]]:
    """Every `any` read inside an annotation, with the statement or def it annotates."""
    found: list[tuple[ast.Name, ast.AST]] = []
    annotations: list[tuple[ast.expr, ast.AST]] = []
    for kind in (ast.FunctionDef, ast.AsyncFunctionDef):
        for function in nodes_of(tree, kind):
            arguments = function.args
            for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                        arguments.vararg, arguments.kwarg]:
                if arg is not None and arg.annotation is not None:
                    annotations.append((arg.annotation, function))
            if function.returns is not None:
                annotations.append((function.returns, function))
    for statement in nodes_of(tree, ast.AnnAssign):
        annotations.append((statement.annotation, statement))
    for annotation, owner in annotations:
        for node in _walk_type(annotation):
            if isinstance(node, ast.Name) and node.id == "any":
                found.append((node, owner))
    return found


def _walk_type(annotation: ast.expr) -> Iterator[ast.expr]:
    """The parts of an annotation that name types (not call arguments, not strings)."""
    stack = [annotation]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.Subscript):
            stack += [node.value, node.slice]
        elif isinstance(node, (ast.Tuple, ast.List)):
            stack += node.elts
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            stack += [node.left, node.right]


def _replacement(model: SemanticModel, name: ast.Name) -> tuple[str, tuple[AddImport, ...]] \
        | None:
    """What to write for `any` here, and the import it needs; None if nothing fits."""
    scope = model.scope_of(name)
    bound_any = model.bindings_of("Any", scope)
    if bound_any:
        if all(b.qualified_name in TYPING_ANY for b in bound_any):
            return "Any", ()
    elif not model.module_scope.star_imports:
        return "Any", (AddImport("typing", "Any"),)
    typing = model.bindings_of("typing", scope)
    if typing:
        if all(b.qualified_name == "typing" for b in typing):
            return "typing.Any", ()
        return None
    return "typing.Any", (AddImport("typing"),)


def _validated_field(model: SemanticModel, owner: ast.AST) -> bool:
    """A class-level annotation of a class a validation library reads at run time."""
    if not isinstance(owner, ast.AnnAssign):
        return False
    cls = model.parent(owner)
    if not isinstance(cls, ast.ClassDef):
        return False
    names = [model.qualified_name(base) for base in cls.bases]
    names += [model.qualified_name(d.func if isinstance(d, ast.Call) else d)
              for d in cls.decorator_list]
    return any(n is not None and n.split(".")[0] in VALIDATING_LIBRARIES for n in names)
