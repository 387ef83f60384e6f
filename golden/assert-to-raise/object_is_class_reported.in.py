# golden-args: --unsafe-fixes
# pytorch-quant-tool (round 48): `assert model is nn.Module` holds only where the class
# itself is passed, so the check fails for every model; `isinstance` was meant. Reported:
# a raise would keep the bug. `cls is nn.Module` and `type(x) is int` compare classes.
import torch
import torch.nn as nn


def fuse_model(model, rules):
    assert model is nn.Module
    return model


def check(cls, x: int):
    assert cls is nn.Module
    assert type(x) is int
    assert x is int
    return x


class Kernel:
    pass


def combine(kernels, sub_kernel):
    # torch-npu (round 55): an instance is never the class, so the check cannot fail
    assert sub_kernel is not Kernel
    return [sub_kernel, *kernels]
