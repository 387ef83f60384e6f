import torch


def mask_padding(scores: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(pad, -10000.0)


def mask_future(scores: torch.Tensor, causal: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(causal, -10000.0)


def mask_memory(scores: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(~memory, -1e4)
