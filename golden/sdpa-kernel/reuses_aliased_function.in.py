import torch
from torch.nn.attention import sdpa_kernel as kernel


def run(model, x):
    with kernel([torch.nn.attention.SDPBackend.MATH]):
        model(x)
    with torch.backends.cuda.sdp_kernel(enable_flash=False):
        model(x)
