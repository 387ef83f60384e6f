import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def attend(q, k, v):
    with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.CUDNN_ATTENTION]):
        fast = F.scaled_dot_product_attention(q, k, v)
    with sdpa_kernel([SDPBackend.MATH]):
        exact = F.scaled_dot_product_attention(q, k, v)
    return fast, exact
