"""torchada (round 54): CUDA code runs on another GPU through replaced torch modules, so
the project's own uses of torch.cuda.amp, its tests above all, check that replacement and
are left alone."""

import sys

import torch


def apply_patches():
    if hasattr(torch, "musa"):
        sys.modules["torch.cuda.amp"] = torch.musa.amp
