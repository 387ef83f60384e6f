# golden-args: --unsafe-fixes
import torch

MASK_FILL_VALUE = "mask-fill"  # an unrelated setting that happens to have the name


def block(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: torch.Tensor):
    a = a.masked_fill(m, -1e9)
    b = b.masked_fill(m, -1e9)
    c = c.masked_fill(m, -1e9)
    return a + b + c, torch.where(m, a, 1e6), torch.where(m, b, 1e6), torch.where(m, c, 1e6)
