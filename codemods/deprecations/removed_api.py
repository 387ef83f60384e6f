"""removed-api: calls, imports and references of functions torch has removed (TOR001, TOR004)."""

from __future__ import annotations

from .catalogue import of_status
from .engine import CatalogueCodemod, Codes, Table

TABLE = Table(of_status("removed"), Codes(use="TOR001", imported="TOR004"))


class RemovedApi(CatalogueCodemod):
    """Report uses of functions torch has removed, with what replaces each.

    ## What it does
    Finds every use of a torch function that no longer works, through any alias: calls
    (`torch.solve(B, A)`), references that are not calls (`solver = torch.lstsq`), and
    `from` imports (`from torch import symeig`). Each finding names the replacement and how
    its arguments differ. The rows live in the migration catalogue
    (`codemods/deprecations/catalogue.toml`, status `removed`).

    ## Why
    These functions raise at the first call (`torch.solve` is a stub that says it was
    removed in torch 1.9) or are gone altogether (`torch.onnx.dynamo_export`): the code
    around them is dead or broken, usually in a rarely run path such as an evaluation
    script or an export step.

    ## Example
    ```python
    x = torch.solve(b, A).solution
    ```
    is reported:
    `torch.solve was removed from torch: use torch.linalg.solve; torch.linalg.solve(A, B)
    takes the matrix first and returns the solution only`, and becomes by hand
    ```python
    x = torch.linalg.solve(A, b)
    ```

    ## Fix safety
    None of these has an automatic fix: each replacement takes its arguments in another
    order or returns something else, so a person rewrites the call. TorchFix codes:
    TOR001 for a use, TOR004 for an import.
    """

    name = "removed-api"
    summary = "Report uses of torch functions that were removed (torch.solve, torch.symeig, ...)."
    table = TABLE
    triggers = TABLE.triggers()
    fix_safety = "report"
    codes = ("TOR001", "TOR004")
    family = "deprecations"
