# golden-args: --unsafe-fixes
import math

import torch
import torch as th
from torch import log


def losses(ratio, z, eps):
    a = torch.log(1 + ratio)
    b = th.log(z.exp() + 1.0)
    c = log(1 + torch.exp(-z))
    nested = torch.log(1 + torch.log(1 + ratio))  # the inner one only: the outer would swallow it
    return a, b, c, nested, math.log(1 + eps)
