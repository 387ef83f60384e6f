import torch
from torch.nn.attention import SDPBackend, sdpa_kernel


def attend(model, x):
    with sdpa_kernel(
        [
            SDPBackend.FLASH_ATTENTION,
            SDPBackend.EFFICIENT_ATTENTION,
            SDPBackend.CUDNN_ATTENTION,
        ]
    ):
        return model(x)


def ones():
    return torch.ones(3)
