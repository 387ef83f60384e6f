import numpy as np
import torch


def untouched(x, y, out):
    a = torch.log(2 + x)
    b = torch.log(1 - x)
    c = torch.log(1 + x, out=out)
    d = np.log(1 + y)
    e = torch.log(True + x)
    return a, b, c, d, e
