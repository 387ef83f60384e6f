import torch
from torch.nn.attention import SDPBackend
from torch.nn.attention import sdpa_kernel as kernel


def run(model, x):
    with kernel([torch.nn.attention.SDPBackend.MATH]):
        model(x)
    with kernel(
        [SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH, SDPBackend.CUDNN_ATTENTION]
    ):
        model(x)
