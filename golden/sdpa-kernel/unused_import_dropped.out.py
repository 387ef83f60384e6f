"""Attention with the backends picked."""

import math

from numpy import pi
from torch.nn.attention import SDPBackend, sdpa_kernel


def attend(model, x):
    with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]):
        return model(x) * math.tau * pi
