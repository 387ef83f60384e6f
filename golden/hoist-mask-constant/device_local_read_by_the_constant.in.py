# golden-args: --unsafe-fixes
import torch


def mask_scores(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    # `dtype` is still read by the fill value itself: it stays.
    dtype = scores.dtype
    return scores.masked_fill(mask, torch.tensor(torch.finfo(dtype).min, dtype=dtype))


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    dtype = logits.dtype
    fill = torch.tensor(torch.finfo(dtype).min, dtype=dtype)
    return logits.masked_fill(mask, fill)
