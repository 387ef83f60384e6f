# golden-args: --unsafe-fixes
import torch

MASK_FILL_VALUE_2 = -1e9
LARGE_FILL_VALUE = 1e6

MASK_FILL_VALUE = "mask-fill"  # an unrelated setting that happens to have the name


def block(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: torch.Tensor):
    a = a.masked_fill(m, MASK_FILL_VALUE_2)
    b = b.masked_fill(m, MASK_FILL_VALUE_2)
    c = c.masked_fill(m, MASK_FILL_VALUE_2)
    return a + b + c, torch.where(m, a, LARGE_FILL_VALUE), torch.where(m, b, LARGE_FILL_VALUE), torch.where(m, c, LARGE_FILL_VALUE)
