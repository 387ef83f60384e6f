import torch


def grids(n, lo, hi):
    steps = torch.range(0, 9)  # ten values, float32 by default
    evens = torch.range(0, 10, 2)
    down = torch.range(5, -5, -1)
    last = torch.range(1, n - 1)
    halves = torch.range(0, 1, 0.5)
    span = torch.range(lo, hi, dtype=torch.float64)
    return steps, evens, down, last, halves, span
