"""non-public-api: torch's private collate helpers, moved to their public names (TOR104, TOR105)."""

from __future__ import annotations

from ..deprecations.catalogue import of_status
from ..deprecations.engine import CatalogueCodemod, Codes, Table

TABLE = Table(of_status("non-public"), Codes(use="TOR104", imported="TOR105"))


class NonPublicApi(CatalogueCodemod):
    """Use the public names of torch's collate helpers instead of their private module.

    ## What it does
    `torch.utils.data._utils.collate.default_collate` and `default_convert` (calls,
    references such as `collate_fn=default_collate`, and `from` imports) become
    `torch.utils.data.default_collate` / `default_convert`.

    ## Why
    `torch.utils.data._utils` is private: torch may move or change it in any release
    without a deprecation. The public names are the same functions, available since
    torch 1.11.

    ## Example
    ```python
    from torch.utils.data._utils.collate import default_collate

    loader = DataLoader(ds, collate_fn=default_collate)
    ```
    becomes
    ```python
    from torch.utils.data import default_collate

    loader = DataLoader(ds, collate_fn=default_collate)
    ```

    ## Fix safety
    **Safe**: the public name is the very same function object. TorchFix codes: TOR104
    for a use, TOR105 for an import.
    """

    name = "non-public-api"
    summary = "Use torch.utils.data.default_collate/default_convert, not their private module."
    table = TABLE
    triggers = TABLE.triggers()
    fix_safety = "safe"
    codes = ("TOR104", "TOR105")
    family = "data"
