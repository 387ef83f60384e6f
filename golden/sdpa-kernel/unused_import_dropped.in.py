"""Attention with the backends picked."""

import math

import torch as th
from numpy import pi


def attend(model, x):
    with th.backends.cuda.sdp_kernel(enable_flash=False, enable_cudnn=False):
        return model(x) * math.tau * pi
