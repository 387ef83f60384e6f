# golden-args: --unsafe-fixes
import torch

MASK_FILL_VALUE = -1e9


def mask_padding(scores: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(pad, MASK_FILL_VALUE)


def mask_future(scores: torch.Tensor, causal: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(causal, MASK_FILL_VALUE)


def mask_memory(scores: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(~memory, MASK_FILL_VALUE)
