import math
import random

import numpy as np
import torch

MAX_LOG = 20.0


def perplexity(loss):
    try:
        return math.exp(loss)
    except OverflowError:
        return float("inf")


def schedules(step, x, logits):
    a = 1 / (1 + math.exp(min(-x, 50.0)))
    b = 1 / (1 + math.exp(-abs(x)))
    c = 1 / (1 + math.exp(MAX_LOG))
    d = 1 / (1 + np.exp(-x))
    e = torch.sigmoid(logits)
    f = 1.0 / (1.0 + torch.exp(-logits))
    g = math.exp(-0.3 * step)  # not in a logistic: no report
    aspect = math.exp(random.uniform(-1.0, 1.0))
    return a, b, c, d, e, f, g, aspect


def guarded(x):
    try:
        return 1 / (1 + math.exp(-x))
    except (OverflowError, ZeroDivisionError):
        return 0.0


def sigma_bounds(logsnr_min: float = -15.0, logsnr_max: float = 18.0):
    # Settings with literal defaults, not data: not worth a clamp.
    return 1.0 / (1.0 + math.exp(0.5 * logsnr_max)), 1.0 / (1.0 + math.exp(0.5 * logsnr_min))


def ideogram_bounds(num_pixels: int, mu: float = 0.0):
    # Settings assigned once from literals: still not data.
    mean = mu + 0.5 * math.log(num_pixels / (512 * 512))
    logsnr_min = -15.0
    logsnr_max = 18.0
    t_min = 1.0 / (1 + math.exp(0.5 * logsnr_max))
    t_max = 1.0 / (1 + math.exp(0.5 * logsnr_min))
    return mean, t_min, t_max


class IonicModel:
    # torchcor (round 49): a setting of the class, assigned a constant once, cannot
    # overflow exp (an attribute the class also changes, `self.V += dv`, is data:
    # logistic_is_unsafe)
    def __init__(self):
        self.V_init = -87.0
        self.m_inf = 1.0 / (1.0 + math.exp((-(self.V_init + 39.57)) / 9.871))


def sigmoid(x: float) -> float:
    # torchlet (round 51): split on the sign, the exponent never passes 0
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    else:
        return math.exp(x) / (1.0 + math.exp(x))


def tanh(x: float) -> float:
    # pytorch-mini (round 56): the numerator's exp overflows first, and clamping the
    # denominator's alone makes the ratio pass 1 (54.6 at x = 352): not a logistic
    return (math.exp(2 * x) - 1) / (math.exp(2 * x) + 1)
