import torch
import torch.nn.functional as F
from torch.backends.cuda import sdp_kernel


def attend(q, k, v):
    with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=False,
                                        enable_mem_efficient=False):
        fast = F.scaled_dot_product_attention(q, k, v)
    with sdp_kernel(enable_flash=False, enable_math=True, enable_mem_efficient=False,
                    enable_cudnn=False):
        exact = F.scaled_dot_product_attention(q, k, v)
    return fast, exact
