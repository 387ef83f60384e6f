"""Blending of feature maps."""

import torch


def blend(a: torch.Tensor, b: torch.Tensor, weights: list[float], mode: str = "sum"):
    assert a.shape == b.shape, "a and b must have the same shape"
    assert len(weights) == 2, "two weights expected"
    assert mode in ("sum", "max"), "mode must be sum or max"
    if mode == "sum":
        out = weights[0] * a + weights[1] * b
    elif a.dtype == torch.bool:
        out = a | b
    else:
        out = torch.maximum(a, b)
    for _ in range(2):
        if out.isnan().any():
            out = torch.nan_to_num(out)
    return out


def scale(x: torch.Tensor, factor: float):
    assert factor > 0, "factor must be positive"
    return x * factor
