# golden-args: --unsafe-fixes
import math

import torch
import torch as th


def losses(ratio, z, eps):
    a = torch.log1p(ratio)
    b = th.log1p(z.exp())
    c = torch.log1p(torch.exp(-z))
    nested = torch.log(1 + torch.log1p(ratio))  # the inner one only: the outer would swallow it
    return a, b, c, nested, math.log(1 + eps)
