# golden-args: --unsafe-fixes
import torch


@torch.jit.script
def mask_a(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    # TorchScript cannot read a module-level float: the literals must stay.
    return scores.masked_fill(mask, -1e9)


@torch.jit.script
def mask_b(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(mask, -1e9)


@torch.jit.script
def mask_c(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(mask, -1e9)
