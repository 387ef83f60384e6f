"""scoped-library: `torch.library.Library` in PyTorch's own tests (TorchFix TOR901)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.model.ast_index import nodes_of
from torchfix.rewrite.contract import Codemod, FileContext, Finding, Safety

from ..prefilter import torch_calls


class ScopedLibrary(Codemod):
    """Report `torch.library.Library(...)`: tests should use `_scoped_library`.

    ## What it does
    Reports calls of `torch.library.Library`. A rule for PyTorch's own test suite, where
    a library registered by one test must not leak into the next; kept so that TorchFix's
    TOR901 has a home.

    ## Why
    `torch.library._scoped_library` is a context manager that deregisters what it
    registered; a `Library` object lives as long as the process.

    ## Example
    ```python
    lib = torch.library.Library("mylib", "DEF")
    ```
    is reported: use `with torch.library._scoped_library("mylib", "DEF") as lib:`.

    ## Fix safety
    No automatic fix: the scope of the library is a person's choice. Off by default, as in
    TorchFix (TOR9 codes were opt-in there).
    """

    name = "scoped-library"
    summary = "Report torch.library.Library in PyTorch tests: use _scoped_library."
    triggers = (b"Library(",)
    fix_safety = "report"
    enabled_by_default = False
    codes = ("TOR901",)
    family = "internal"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in torch_calls(tree, ("Library",))}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        for call in nodes_of(file.tree, ast.Call):
            if file.semantic.qualified_name(call.func) == "torch.library.Library":
                yield Finding(call, "use torch.library._scoped_library in tests: a Library "
                              "outlives the test that registered it", Safety.MANUAL)
