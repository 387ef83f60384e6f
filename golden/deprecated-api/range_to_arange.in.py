import torch


def grids(n, lo, hi):
    steps = torch.range(0, 9)  # ten values, float32 by default
    evens = torch.range(0, 10, 2)
    odds = torch.range(1, 10, 2)  # 1, 3, 5, 7, 9: the end is not one of them
    down = torch.range(5, -5, -1)
    last = torch.range(1, n - 1)
    halves = torch.range(0, 1, 0.5)
    span = torch.range(lo, hi, dtype=torch.float64)
    return steps, evens, odds, down, last, halves, span
