"""autocast-device: torch's autocast state functions with the device said, not implied."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from torchfix.rewrite.contract import Codemod, FileContext, Finding, ReplaceNode, Safety

from .calls import calls_named, plain, spell_function, too_new

# old function → (new function, device, how many arguments the old form takes)
RENAMES = {
    "torch.get_autocast_gpu_dtype": ("torch.get_autocast_dtype", "cuda", 0),
    "torch.set_autocast_gpu_dtype": ("torch.set_autocast_dtype", "cuda", 1),
}
for _device in ("cpu", "ipu", "xla"):
    RENAMES |= {
        f"torch.is_autocast_{_device}_enabled": ("torch.is_autocast_enabled", _device, 0),
        f"torch.set_autocast_{_device}_enabled": ("torch.set_autocast_enabled", _device, 1),
        f"torch.get_autocast_{_device}_dtype": ("torch.get_autocast_dtype", _device, 0),
        f"torch.set_autocast_{_device}_dtype": ("torch.set_autocast_dtype", _device, 1),
    }
SINCE = (2, 4)


class AutocastDevice(Codemod):
    """Name the device in torch's autocast state functions.

    ## What it does
    `torch.get_autocast_gpu_dtype()` becomes `torch.get_autocast_dtype("cuda")`,
    `torch.is_autocast_cpu_enabled()` becomes `torch.is_autocast_enabled("cpu")`, and so
    on for the `gpu`/`cpu`/`ipu`/`xla` getters and setters. The device string takes the
    quote the formatter's configuration fixes, else the one the file's strings mostly use.
    The forms without a device, `torch.is_autocast_enabled()` and
    `torch.set_autocast_enabled(flag)`, are left alone: they mean CUDA and are not
    deprecated (torch 2.13 does not warn for them), so `"cuda"` would change nothing.

    ## Why
    torch 2.4 replaced the per-device functions by ones that take the device; the old
    ones warn (`DeprecationWarning`) on every call.

    ## Example
    ```python
    if torch.is_autocast_enabled():
        dtype = torch.get_autocast_gpu_dtype()
    ```
    becomes
    ```python
    if torch.is_autocast_enabled():
        dtype = torch.get_autocast_dtype("cuda")
    ```

    ## Fix safety
    **Safe**: each old function is the new one with its device filled in. The new
    signatures need torch >= 2.4: below the project's torch floor the calls are reported.
    (`torch.cuda.amp` and `torch.cpu.amp` themselves are amp-api's.)
    """

    name = "autocast-device"
    summary = "Name the device in torch's autocast state functions (get_autocast_dtype(\"cuda\"))."
    triggers = (b"autocast_enabled", b"autocast_gpu", b"autocast_cpu", b"autocast_ipu",
                b"autocast_xla")
    fix_safety = "safe, unsafe"
    family = "migrations"

    @classmethod
    def candidate_lines(cls, tree: ast.Module) -> set[int]:
        return {call.lineno for call in calls_named(tree, _LASTS)}

    @classmethod
    def check(cls, file: FileContext) -> Iterator[Finding]:
        for call in calls_named(file.tree, _LASTS):
            if not plain(call) or call.keywords or len(call.args) > 1:
                continue  # the cheap look first: the forms without a device take 0 or 1
            meaning = file.semantic.qualified_name(call.func)
            rename = RENAMES.get(meaning or "")
            if rename is None:
                continue
            new, device, arity = rename
            if len(call.args) != arity:
                continue  # already given a device (or not a call we know)
            message = (f"{meaning}() is deprecated: use"
                       f" {new}(\"{device}\"{', ...' if arity else ''})")
            problem = too_new(file, SINCE, new)
            if problem:
                yield Finding(call, f"{message} ({problem})", Safety.MANUAL)
                continue
            function = spell_function(file, call, new)
            if function is None:
                yield Finding(call, f"{message} (torch is not reachable here)", Safety.MANUAL)
                continue
            arguments = ", ".join([file.in_quotes(device), *(file.source(a) for a in call.args)])
            unsafe = file.undeclared_floor(SINCE, new)
            yield Finding(call, f"{message} (unsafe: {unsafe})" if unsafe else message,
                          Safety.UNSAFE if unsafe else Safety.SAFE, (
                ReplaceNode(call, f"{function.text}({arguments})"), *function.imports))


_LASTS = frozenset(name.rsplit(".", 1)[-1] for name in RENAMES)
