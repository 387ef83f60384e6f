# golden-args: --unsafe-fixes
# A handler that a module's dispatch table maps a torch operation to is called by the
# library with what the operation carries (ptflops' `ATEN_OPS_MAPPING`, torchao's
# `NF4_OPS_TABLE`): its checks are internal invariants, left alone. A table keyed by
# strings names user-facing functions (liger-kernel's model types): those are converted.
from typing import Any, List

import torch

aten = torch.ops.aten


def bmm_flop(inputs: List[Any], outputs: List[Any]) -> int:
    assert len(inputs) == 2, len(inputs)
    n, c, t = inputs[0].shape
    return n * c * t * inputs[-1].shape[-1]


def apply_kernels_to_llama(rope: bool = True, fused_cross_entropy: bool = False,
                           cross_entropy: bool = False) -> None:
    if cross_entropy and fused_cross_entropy:
        raise ValueError("choose one cross entropy")


ATEN_OPS_MAPPING = {aten.bmm: bmm_flop}
MODEL_TYPE_TO_APPLY_FN = {"llama": apply_kernels_to_llama}
