"""torchvision-singleton-import: `import torchvision.models as models` (TorchFix TOR203)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

MODULES = ("datasets", "models", "transforms")


class TorchvisionSingletonImport(Codemod):
    """Write `from torchvision import models` for `import torchvision.models as models`.

    ## What it does
    `import torchvision.models as models` (and the same for `datasets` and `transforms`)
    becomes `from torchvision import models`.

    ## Why
    Both bind the same module to the same name; the `from` form is the one torchvision's
    documentation uses and says so in fewer words. A style rule, kept for TorchFix users.

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
    """

    name = "torchvision-singleton-import"
    summary = "Write `from torchvision import models` for `import torchvision.models as models`."
    triggers = (b"import torchvision.",)
    fix_safety = "safe"
    codes = ("TOR203",)
    family = "vision"

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
                    yield Finding(node, message, Safety.SAFE,
                                  (ReplaceNode(node, f"from torchvision import {module}"),))
                else:
                    yield Finding(node, f"{message} (in a statement importing more: split it "
                                  "by hand)", Safety.MANUAL)


def _singletons(node: ast.Import) -> list[str]:
    return [alias.asname for alias in node.names
            if alias.asname in MODULES and alias.name == f"torchvision.{alias.asname}"]
