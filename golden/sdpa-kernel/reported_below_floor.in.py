import torch


def attend(q, k, v):
    with torch.backends.cuda.sdp_kernel(enable_math=False):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)
