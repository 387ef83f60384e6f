"""torchvision-singleton-import: `import torchvision.models as models` (TorchFix TOR203)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety
from torchfix.rewrite.import_move import sorted_move

MODULES = ("datasets", "models", "transforms")


class TorchvisionSingletonImport(Codemod):
    """Write `from torchvision import models` for `import torchvision.models as models`.

    ## What it does
    `import torchvision.models as models` (and the same for `datasets` and `transforms`)
    becomes `from torchvision import models`.

    ## Why
    Both bind the same module to the same name; the `from` form is the one torchvision's
    documentation uses and says so in fewer words. A style rule, kept for TorchFix users and
off by default: select it by name or as TOR203.

    ## Example
    ```python
    import torchvision.transforms as transforms
    ```
    becomes
    ```python
    from torchvision import transforms
    ```

    ## Fix safety
    **Safe**: the name is bound to the very same module object. An `import` statement that
    imports other modules as well is reported, not split. TorchFix code: TOR203.

    Where the import block holding the statement is sorted the way isort (ruff's
    `I001`) sorts it, at the project's settings (`force-sort-within-sections`,
    `force-single-line`, `known-first-party`, ...), the new `from` import goes where the
    sorter would put it: after the plain imports of its section by default, and into an
    existing `from torchvision import ...` statement (`from torchvision import
    datasets, transforms`) unless `force-single-line` is set. A block that is not sorted
    keeps the new import in the old one's place, as does a block holding more than one
    such import.
    """

    name = "torchvision-singleton-import"
    summary = "Write `from torchvision import models` for `import torchvision.models as models`."
    triggers = (b"import torchvision.",)
    fix_safety = "safe"
    codes = ("TOR203",)
    family = "vision"
    editor = "torchfix.rewrite.import_move_edit:ImportMoveEditor"
    # Off by default: pure style, and every fresh review (rounds 6, 7, 9) counted it as
    # noise a maintainer rejects; select it by name or TOR203 for TorchFix's behaviour.
    enabled_by_default = False

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {node.lineno for node in nodes_of(tree, ast.Import) if _singletons(node)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        for node in nodes_of(file.tree, ast.Import):
            for module in _singletons(node):
                message = (f"import torchvision.{module} as {module} is `from torchvision "
                           f"import {module}`")
                if len(node.names) == 1:
                    statement = f"from torchvision import {module}"
                    others = frozenset(
                        id(other) for other in nodes_of(file.tree, ast.Import)
                        if other is not node and _singletons(other))
                    move = sorted_move(file, node, statement, "torchvision", (module,),
                                       stays=others)
                    edits: tuple[ReplaceNode, ...] = (ReplaceNode(node, statement),)
                    if move is not None:
                        edits = move.edits()
                    yield Finding(node, message, Safety.SAFE, edits, data=move)
                else:
                    yield Finding(node, f"{message} (in a statement importing more: split it "
                                  "by hand)", Safety.MANUAL)


def _singletons(node: ast.Import) -> list[str]:
    return [alias.asname for alias in node.names
            if alias.asname in MODULES and alias.name == f"torchvision.{alias.asname}"]
