# golden-args: --unsafe-fixes
import torch


def mask_padding(scores: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
    device = scores.device
    return scores.masked_fill(pad, torch.tensor(-1e9, device=device))


def mask_future(scores: torch.Tensor, causal: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(causal, -1e9)


def mask_memory(scores: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(~memory, -1e9)
