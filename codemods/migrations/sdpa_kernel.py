"""sdpa-kernel: `torch.backends.cuda.sdp_kernel(...)` → `torch.nn.attention.sdpa_kernel([...])`."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety
from torchfix.rewrite.layout import split_replacement

from ..spelling import refer
from .calls import calls_named, plain, spell_function, too_new

OLD = "torch.backends.cuda.sdp_kernel"
NEW = "torch.nn.attention.sdpa_kernel"
BACKEND = "torch.nn.attention.SDPBackend"
# The same enum (torch._C._SDPBackend) under the other names torch gives it: a file that
# imports it so already writes `SDPBackend.MATH` through that name.
BACKEND_ALIASES = ("torch.backends.cuda.SDPBackend", "torch._C._SDPBackend")
# sdp_kernel's parameters, in order, and the backend each enables; the list is built in
# the order sdp_kernel builds it (flash, efficient, math, cudnn).
PARAMETERS = ("enable_flash", "enable_math", "enable_mem_efficient", "enable_cudnn")
BACKENDS = (("enable_flash", "FLASH_ATTENTION"), ("enable_mem_efficient", "EFFICIENT_ATTENTION"),
            ("enable_math", "MATH"), ("enable_cudnn", "CUDNN_ATTENTION"))
SINCE = (2, 3)
SINCE_CUDNN = (2, 4)


class SdpaKernel(Codemod):
    """Replace the deprecated `torch.backends.cuda.sdp_kernel` by `torch.nn.attention.sdpa_kernel`.

    ## What it does
    `sdp_kernel(enable_flash=..., enable_math=..., enable_mem_efficient=...,
    enable_cudnn=...)` with literal flags becomes `sdpa_kernel([...])` with the list of
    the enabled backends, imported from `torch.nn.attention`.

    ## Why
    `sdp_kernel` warns on every use and will be removed; `sdpa_kernel` names the backends
    to allow instead of four flags (and can also set their priority).

    ## Example
    ```python
    with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False,
                                        enable_mem_efficient=False):
        out = F.scaled_dot_product_attention(q, k, v)
    ```
    becomes
    ```python
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION]):
        out = F.scaled_dot_product_attention(q, k, v)
    ```
    with `from torch.nn.attention import SDPBackend, sdpa_kernel`.

    ## Fix safety
    **Safe**: `sdp_kernel` itself builds this list from its flags (an omitted flag is
    True, so the cuDNN backend, which `enable_cudnn` defaults to, is in the list) and
    enters `sdpa_kernel` with it. Flags that are not literals are reported, as is
    `sdp_kernel` used as a value. `sdpa_kernel` needs torch >= 2.3, `CUDNN_ATTENTION`
    torch >= 2.4: below the project's torch floor the use is reported. TorchFix reported
    `sdp_kernel` as TOR101 without a fix.
    """

    name = "sdpa-kernel"
    summary = "Replace the deprecated torch.backends.cuda.sdp_kernel by nn.attention.sdpa_kernel."
    triggers = (b"sdp_kernel",)
    fix_safety = "safe, unsafe"
    codes = ("TOR101",)
    family = "migrations"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in calls_named(tree, ("sdp_kernel",))}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        model = file.semantic
        for call in calls_named(file.tree, ("sdp_kernel",)):
            if model.qualified_name(call.func) != OLD:
                continue
            message = "torch.backends.cuda.sdp_kernel is deprecated: use " \
                      "torch.nn.attention.sdpa_kernel with the list of backends"
            flags = _flags(file, call)
            if isinstance(flags, str):
                yield Finding(call, f"{message} ({flags})", Safety.MANUAL)
                continue
            backends = [backend for flag, backend in BACKENDS if flags[flag]]
            since = SINCE_CUDNN if "CUDNN_ATTENTION" in backends else SINCE
            problem = too_new(file, since, "sdpa_kernel" + (
                " with CUDNN_ATTENTION" if since == SINCE_CUDNN else ""))
            if problem:
                yield Finding(call, f"{message} ({problem})", Safety.MANUAL)
                continue
            function = spell_function(file, call, NEW, prefer_from_import=True)
            enum = refer(file, call, BACKEND, prefer_from_import=True,
                         aliases=BACKEND_ALIASES)
            if function is None or enum is None:
                yield Finding(call, f"{message} (a name it needs is taken here)", Safety.MANUAL)
                continue
            listed = ", ".join(f"{enum.text}.{backend}" for backend in backends)
            unsafe = file.undeclared_floor(since, "sdpa_kernel")
            yield Finding(call, f"{message} (unsafe: {unsafe})" if unsafe else message,
                          Safety.UNSAFE if unsafe else Safety.SAFE, (
                _replacement(file, call, f"{function.text}([{listed}])"),
                *function.imports, *enum.imports))


def _replacement(file: FileContext, call: ast.Call, code: str) -> ReplaceNode:
    """`call` replaced by `code`; where that outgrows the project's line length, laid out
    over lines as black and ruff format would lay it out."""
    layout = split_replacement(file, call, code)
    if layout is not None:
        return ReplaceNode(layout.node, layout.code)
    return ReplaceNode(call, code)


def _flags(file: FileContext, call: ast.Call) -> dict[str, bool] | str:
    """Each flag's value (True where omitted), or why they cannot be read."""
    if not plain(call) or len(call.args) > len(PARAMETERS):
        return "its arguments are unpacked here"
    given = dict(zip(PARAMETERS, call.args, strict=False))
    for keyword in call.keywords:
        if keyword.arg not in PARAMETERS:
            return f"unknown argument {keyword.arg}="
        given[keyword.arg] = keyword.value  # type: ignore[index]
    flags: dict[str, bool] = {}
    for parameter in PARAMETERS:
        node = given.get(parameter)
        value = True if node is None else file.semantic.literal(node)
        if not isinstance(value, bool):
            return f"{parameter} is not a literal: list the backends by hand"
        flags[parameter] = value
    return flags
