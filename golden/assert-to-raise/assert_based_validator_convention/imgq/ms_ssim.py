"""The ms_ssim metric."""
import torch

from .utils import _validate_input


def ms_ssim(x: torch.Tensor, y: torch.Tensor, kernel_size: int = 11) -> torch.Tensor:
    assert kernel_size % 2 == 1, f"Kernel size must be odd, got [{kernel_size}]"
    _validate_input([x, y], dim_range=(4, 4), data_range=(0, 1))
    return (x - y).abs().mean()
