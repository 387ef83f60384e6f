import torch


def mask_heads(heads: list, mask: torch.Tensor) -> list:
    fill = torch.tensor(-1e4)
    return [scores.masked_fill(mask, fill) for scores in heads]


def mask_each(scores: list, mask: torch.Tensor, x: torch.Tensor) -> list:
    # Moved into the comprehension, the constant would read its `x`, not the parameter.
    fill = torch.tensor(torch.finfo(x.dtype).min, dtype=x.dtype)
    return [x.masked_fill(mask, fill) for x in scores]
