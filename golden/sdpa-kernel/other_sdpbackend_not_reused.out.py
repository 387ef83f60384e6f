import torch
from mylib.enums import SDPBackend
from torch.nn.attention import sdpa_kernel


def run(model, x):
    with sdpa_kernel(
        [
            torch.nn.attention.SDPBackend.EFFICIENT_ATTENTION,
            torch.nn.attention.SDPBackend.MATH,
        ]
    ):
        model(x, SDPBackend.FAST)
