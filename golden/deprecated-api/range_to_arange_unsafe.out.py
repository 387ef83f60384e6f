# golden-args: --unsafe-fixes
import torch


def grids(n, lo, hi):
    steps = torch.arange(0, 10, dtype=torch.get_default_dtype())  # ten values, float32 by default
    evens = torch.arange(0, 12, 2, dtype=torch.get_default_dtype())
    down = torch.arange(5, -6, -1, dtype=torch.get_default_dtype())
    last = torch.arange(1, n, dtype=torch.get_default_dtype())
    halves = torch.arange(0, 1 + 0.5, 0.5)
    span = torch.arange(lo, hi + 1, dtype=torch.float64)
    return steps, evens, down, last, halves, span
