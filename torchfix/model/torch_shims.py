"""Which of torch's own modules a project replaces: a shim that stands its code in for a
torch API (torchada's `sys.modules["torch.cuda.amp"] = torch.musa.amp`, round 54, which
makes CUDA code run on Moore Threads GPUs). There the deprecated API is the product: the
project's tests call `torch.cuda.amp` to check the replacement, and a migration of those
calls tests plain torch instead."""

from __future__ import annotations

import ast

from torchfix.model.ast_index import nodes_of
from torchfix.model.semantic import SemanticModel

# Bytes a module must hold to be parsed for a replacement of a torch module: `setattr(`
# whatever names the owner (`setattr(tc, "amp", ...)` through `import torch.cuda as tc`).
NEEDLES = (b"sys.modules", b"setattr(", b"torch.cuda =", b"torch.cuda.amp =",
           b"torch.cpu.amp =")


def replaced_torch_modules(tree: ast.Module) -> list[tuple[str, int]]:
    """The torch names the module replaces, with the line of each, in line order:
    `sys.modules["torch.cuda.amp"] = ...`, `torch.cuda = ...`, `setattr(torch.cuda, "amp",
    ...)`. Settings assigned the same way (`torch.backends.cudnn.benchmark = True`) are
    among them: the caller asks about the names it cares for."""
    semantic: SemanticModel | None = None
    found: list[tuple[str, int]] = []
    for node in sorted([*nodes_of(tree, ast.Assign), *nodes_of(tree, ast.Call)],
                       key=lambda node: node.lineno):
        if isinstance(node, ast.Call):
            if (isinstance(node.func, ast.Name) and node.func.id == "setattr"
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                    and isinstance(node.args[1].value, str)):
                semantic = semantic or SemanticModel(tree)
                owner = semantic.qualified_name(node.args[0])
                if owner is not None and (owner == "torch" or owner.startswith("torch.")):
                    found.append((f"{owner}.{node.args[1].value}", node.lineno))
            continue
        for target in node.targets:
            if (isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant)
                    and isinstance(target.slice.value, str)
                    and target.slice.value.startswith("torch.")):
                semantic = semantic or SemanticModel(tree)
                if semantic.qualified_name(target.value) == "sys.modules":
                    found.append((target.slice.value, node.lineno))
            elif isinstance(target, ast.Attribute):
                semantic = semantic or SemanticModel(tree)
                name = semantic.qualified_name(target)
                if name is not None and name.startswith("torch."):
                    found.append((name, node.lineno))
    return found
