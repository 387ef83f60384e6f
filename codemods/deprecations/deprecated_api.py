"""deprecated-api: deprecated torch names, moved to their replacements (TOR101, TOR103)."""

from __future__ import annotations

from .catalogue import of_status
from .engine import CatalogueCodemod, Codes, Table

TABLE = Table(of_status("deprecated"), Codes(use="TOR101", imported="TOR103"))


class DeprecatedApi(CatalogueCodemod):
    """Move deprecated torch names to their replacements: calls, imports and references.

    ## What it does
    Every row of the migration catalogue (`codemods/deprecations/catalogue.toml`) with
    status `deprecated`: `torch.ger` → `torch.outer`, `torch.cholesky` →
    `torch.linalg.cholesky`, `torch.qr(A, some=False)` → `torch.linalg.qr(A,
    mode="complete")`, `torch.chain_matmul(a, b)` → `torch.linalg.multi_dot([a, b])`,
    `torch.range(0, 4)` → `torch.arange(0, 5, dtype=torch.get_default_dtype())`,
    `functorch.vmap` → `torch.func.vmap` (and the rest of functorch),
    `torch.library.impl_abstract` → `register_fake`,
    `torch.utils._pytree._register_pytree_node` → `register_pytree_node`,
    `torch.distributed._tensor` → `torch.distributed.tensor`,
    `torch.distributed._composable.fsdp` → `torch.distributed.fsdp`, the deprecated
    `nn.Upsampling*2d` modules; and reports for the ones without a mechanical fix
    (`torch.norm`, `torch.svd`, `torch.lu`, `torch.nn.utils.weight_norm`,
    `torch.testing.assert_allclose`, `torch.set_default_tensor_type`, `tensor.storage()`).

    A use is found through any alias (`import torch as th`, `from torch import ger as g`,
    `t = torch`), called or not (`fn = torch.ger`, `map(functorch.grad(f), xs)`), and
    `from` imports move with their uses: `from functorch import vmap` becomes
    `from torch.func import vmap`. The replacement is spelled the way the file reaches
    the old name (`th.linalg.cholesky`), or with an import added.

    ## Why
    Each of these warns on every call, was renamed in a later torch, or behaves
    differently from what its name promises (`torch.range` includes its end and returns
    floats); TorchFix reported them as TOR101/TOR103, and they are on their way out.

    ## Example
    ```python
    from functorch import vmap, grad
    import torch as th

    jac = vmap(grad(loss))(params)
    L = th.cholesky(cov, upper=cfg.upper)
    ```
    becomes
    ```python
    from torch.func import vmap, grad
    import torch as th

    jac = vmap(grad(loss))(params)
    L = th.linalg.cholesky(cov, upper=cfg.upper)
    ```

    ## Fix safety
    A rename to a function with the same behaviour is **safe** (functorch's functions
    are wrappers of torch.func's; the DTensor and FSDP2 modules are re-exports).
    Arguments are checked against the new signature, values included where they matter
    (`some=cfg.flag` becomes `mode="reduced" if cfg.flag else "complete"`); a call whose
    arguments do not fit, or that unpacks `*args`, is reported, as is a call-rewriting
    row used as a value. `torch.range` → `torch.arange` is safe for integer bounds and
    **unsafe** otherwise (a float end may gain or lose an element); the `nn.Upsample`
    rewrites are unsafe (the module's class changes). A replacement newer than the
    project's torch floor (`min-torch`, else its requirements) is reported, not
    written. Code that binds a name twice (a fallback import for older torch) is left
    alone. TorchFix codes: TOR101 for a use, TOR103 for an import.
    """

    name = "deprecated-api"
    summary = "Move deprecated torch names (torch.cholesky, functorch.vmap, ...) to the new ones."
    table = TABLE
    triggers = TABLE.triggers()
    fix_safety = "safe, unsafe"
    codes = ("TOR101", "TOR103")
    family = "deprecations"
