"""How a rule spells the `torch` module in the code it writes."""

from __future__ import annotations

import ast

from torchfix.model.semantic import BindingKind, SemanticModel
from torchfix.rewrite.contract import AddImport

from ..spelling import reads_unbound


def torch_name(model: SemanticModel, at: ast.AST) -> tuple[str, tuple[AddImport, ...]] | None:
    """The name `torch` is imported as where `at` is read (`th` after `import torch as th`),
    with no import to add; else `torch` with `import torch` to add, where that name is
    free. None when neither works (the name `torch` means something else there)."""
    scope = model.scope_of(at)
    for binding in model.imported_names():
        if binding.qualified_name == "torch" and binding.kind is BindingKind.IMPORT:
            visible = model.bindings_of(binding.name, scope)
            if visible and all(b.qualified_name == "torch" for b in visible):
                return binding.name, ()
    if model.bindings_of("torch", scope) or model.module_scope.star_imports or \
            reads_unbound(model, "torch"):
        return None
    return "torch", (AddImport("torch"),)
