import torch


def grids(n, lo, hi):
    steps = torch.arange(0, 10, dtype=torch.get_default_dtype())  # ten values, float32 by default
    evens = torch.arange(0, 12, 2, dtype=torch.get_default_dtype())
    odds = torch.arange(1, 11, 2, dtype=torch.get_default_dtype())  # 1, 3, 5, 7, 9: the end is not one of them
    down = torch.arange(5, -6, -1, dtype=torch.get_default_dtype())
    last = torch.range(1, n - 1)
    halves = torch.range(0, 1, 0.5)
    span = torch.range(lo, hi, dtype=torch.float64)
    return steps, evens, odds, down, last, halves, span
