"""torchvision-to-tensor: the deprecated `transforms.v2.ToTensor` (TorchFix TOR202)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.rewrite.contract import (
    Codemod,
    FileContext,
    Finding,
    RemoveImport,
    ReplaceNode,
    Safety,
)

from ..prefilter import attributes_by_name, from_package
from ..spelling import refer

OLD = "torchvision.transforms.v2.ToTensor"
V2 = "torchvision.transforms.v2"
MESSAGE = "transforms.v2.ToTensor is deprecated: use v2.Compose([v2.ToImage(), v2.ToDtype(" \
          "torch.float32, scale=True)])"


class TorchvisionToTensor(Codemod):
    """Replace the deprecated `transforms.v2.ToTensor()` by `ToImage` + `ToDtype`.

    ## What it does
    `v2.ToTensor()` (from `torchvision.transforms.v2`, through any alias) becomes
    `v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])`. The classic
    `torchvision.transforms.ToTensor` is not deprecated and is left alone.

    ## Why
    torchvision deprecated `v2.ToTensor` and will remove it; its replacement says what
    the old transform did in two steps: make an image tensor, scale it to float.

    ## Example
    ```python
    from torchvision.transforms import v2

    to_tensor = v2.ToTensor()
    ```
    becomes
    ```python
    to_tensor = v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])
    ```

    ## Fix safety
    **Unsafe**: the values are the same, but the result is a `tv_tensors.Image` (a Tensor
    subclass) rather than a plain tensor, which later v2 transforms and `isinstance`
    checks may treat differently. `ToTensor` used as a value (not called) is reported.
    TorchFix code: TOR202 (reported without a fix there).
    """

    name = "torchvision-to-tensor"
    summary = "Replace the deprecated torchvision transforms.v2.ToTensor() by ToImage + ToDtype."
    triggers = (b"ToTensor",)
    fix_safety = "unsafe"
    codes = ("TOR202",)
    family = "vision"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        lines = {node.lineno for node in attributes_by_name(tree).get("ToTensor", ())
                 if from_package(tree, node, ("torchvision",))}
        lines |= {node.lineno for node in nodes_of(tree, ast.ImportFrom)
                  if any(alias.name == "ToTensor" for alias in node.names)}
        return lines

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        uses: list[ast.expr] = [node for node in attributes_by_name(file.tree).get("ToTensor", ())
                                if from_package(file.tree, node, ("torchvision",))]
        for statement in nodes_of(file.tree, ast.ImportFrom):
            for alias in statement.names:
                if alias.name != "ToTensor" or model.absolute_module(
                        statement.level, statement.module) != V2:
                    continue
                binding = next((b for b in model.scope_of(statement).local(
                    alias.asname or alias.name) if b.node is alias), None)
                if binding is None:
                    continue
                references = model.references(binding)
                uses.extend(references)
                manual = any(not _called(file, use) for use in references) or not references
                yield Finding(statement, MESSAGE, Safety.MANUAL if manual else Safety.UNSAFE,
                              () if manual else (RemoveImport(V2, "ToTensor", alias.asname),))
        for use in uses:
            if isinstance(use, ast.Attribute) and not isinstance(use.ctx, ast.Load):
                continue
            if model.qualified_name(use) != OLD:
                continue
            parent = model.parent(use)
            if not _called(file, use) or parent.args or parent.keywords:  # type: ignore[union-attr]
                yield Finding(use, f"{MESSAGE} (it is not called here without arguments: "
                              "change it by hand)", Safety.MANUAL)
                continue
            via = use.value if isinstance(use, ast.Attribute) else None
            parts = [refer(file, use, f"{V2}.{name}", via=via, from_import=True,
                           module_import=V2 if via is None else None)
                     for name in ("Compose", "ToImage", "ToDtype")]
            dtype = refer(file, use, "torch.float32")
            if dtype is None or any(part is None for part in parts):
                yield Finding(use, f"{MESSAGE} (a name it needs is taken here)", Safety.MANUAL)
                continue
            compose, to_image, to_dtype = (part.text for part in parts)  # type: ignore[union-attr]
            text = (f"{compose}([{to_image}(), {to_dtype}({dtype.text}, scale=True)])")
            imports = [edit for part in [*parts, dtype] for edit in part.imports]  # type: ignore[union-attr]
            yield Finding(parent, MESSAGE, Safety.UNSAFE, (ReplaceNode(parent, text), *imports))


def _called(file: FileContext, node: ast.expr) -> bool:
    parent = file.semantic.parent(node)
    return isinstance(parent, ast.Call) and parent.func is node

