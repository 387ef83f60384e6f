"""Names read from CPython's `ast`, shared by codemods that decide from the fast parse."""

from __future__ import annotations

import ast


def dotted(node: ast.AST) -> list[str]:
    """`torch.nn.Linear` → ["torch", "nn", "Linear"]; [] for anything but a name chain."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return [*base, node.attr] if base else []
    return []


def dotted_name(node: ast.AST) -> str | None:
    """`torch.nn.Linear` → "torch.nn.Linear"; None for anything but a name chain."""
    return ".".join(dotted(node)) or None
