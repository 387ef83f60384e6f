# golden-args: --unsafe-fixes
import torch
from packaging import version


class FlashAttend(torch.nn.Module):
    def __init__(self, dim: int, use_flash: bool = False):
        super().__init__()
        assert not (use_flash and version.parse(torch.__version__) < version.parse("2.0.0")), (
            "in order to use flash attention, you must be using pytorch 2.0 or above"
        )
        if dim % 4 != 0:
            raise ValueError("feature dimension must be a multiple of 4")
        self.use_flash = use_flash
        self.dim = dim
