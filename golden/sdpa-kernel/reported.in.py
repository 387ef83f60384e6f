import torch

FLASH_ONLY = dict(enable_flash=True, enable_math=False, enable_mem_efficient=False)


def attend(q, k, v, cfg):
    with torch.backends.cuda.sdp_kernel(enable_flash=cfg.flash):
        first = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    with torch.backends.cuda.sdp_kernel(**FLASH_ONLY):
        second = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    return first, second
