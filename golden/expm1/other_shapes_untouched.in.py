import math

import torch


def untouched(x, y):
    a = torch.exp(x) - 2
    b = 1 - torch.exp(x)
    c = math.exp(y) - 1
    d = y - torch.exp(x) - 1
    return a, b, c, d
