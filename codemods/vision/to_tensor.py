"""torchvision-to-tensor: the deprecated `transforms.v2.ToTensor` (TorchFix TOR202)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

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
    `torchvision.transforms.ToTensor` is not deprecated and is left alone. An element of
    the transforms list of a `Compose` becomes the two steps in that list:
    `Compose([Resize(224), ToTensor()])` → `Compose([Resize(224), ToImage(),
    ToDtype(torch.float32, scale=True)])`.

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
    editor = ".to_tensor_edit:ToTensorEditor"

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
            spliced = _in_compose_list(file, parent)  # type: ignore[arg-type]
            names = ("ToImage", "ToDtype") if spliced else ("Compose", "ToImage", "ToDtype")
            parts = [refer(file, use, f"{V2}.{name}", via=via, from_import=True,
                           module_import=V2 if via is None else None)
                     for name in names]
            dtype = refer(file, use, "torch.float32")
            if dtype is None or any(part is None for part in parts):
                yield Finding(use, f"{MESSAGE} (a name it needs is taken here)", Safety.MANUAL)
                continue
            *compose, to_image, to_dtype = (part.text for part in parts)  # type: ignore[union-attr]
            steps = (f"{to_image}()", f"{to_dtype}({dtype.text}, scale=True)")
            imports = [edit for part in [*parts, dtype] for edit in part.imports]  # type: ignore[union-attr]
            if spliced:  # the list gets the two steps where ToTensor() was
                yield Finding(parent, MESSAGE, Safety.UNSAFE,
                              (ReplaceNode(parent, steps[0]), *imports), data=Splice(steps[1]))
                continue
            text = f"{compose[0]}([{', '.join(steps)}])"
            yield Finding(parent, MESSAGE, Safety.UNSAFE, (ReplaceNode(parent, text), *imports))


@dataclass(frozen=True)
class Splice:
    """The finding's call is an element of a `Compose([...])` list: it becomes the
    first step (its ReplaceNode), and `after` goes in as the next element."""

    after: str


COMPOSE = frozenset({f"{V2}.Compose", "torchvision.transforms.Compose"})


def _in_compose_list(file: FileContext, call: ast.Call) -> bool:
    """Whether `call` is an element of the list (or tuple) of transforms given to a
    torchvision `Compose`: the two steps go into that list, not a Compose of their own
    (round 13: anomalib's EfficientAd got a Compose nested in its Compose)."""
    model = file.semantic
    sequence = model.parent(call)
    if not isinstance(sequence, ast.List | ast.Tuple) or not isinstance(
            sequence.ctx, ast.Load):
        return False
    compose = model.parent(sequence)
    if isinstance(compose, ast.keyword):
        compose = model.parent(compose)
    if not isinstance(compose, ast.Call) or model.qualified_name(compose.func) not in COMPOSE:
        return False
    return (bool(compose.args) and compose.args[0] is sequence) or any(
        keyword.arg == "transforms" and keyword.value is sequence
        for keyword in compose.keywords)


def _called(file: FileContext, node: ast.expr) -> bool:
    parent = file.semantic.parent(node)
    return isinstance(parent, ast.Call) and parent.func is node

