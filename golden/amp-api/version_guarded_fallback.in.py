"""Code that already picks torch.amp on new torch keeps its torch.cuda.amp fallback."""
import torch
from packaging import version

_TORCH_2_4 = version.parse(torch.__version__).release >= (2, 4)

if _TORCH_2_4:
    from torch.amp import GradScaler
else:
    from torch.cuda.amp import GradScaler

try:
    from torch.amp import custom_bwd, custom_fwd
except ImportError:
    from torch.cuda.amp import custom_bwd, custom_fwd


def make_scaler(enabled: bool):
    return (
        torch.amp.GradScaler("cuda", enabled=enabled)
        if _TORCH_2_4
        else torch.cuda.amp.GradScaler(enabled=enabled)
    )


def autocast_ctx(enabled: bool):
    if hasattr(torch.amp, "autocast"):
        return torch.amp.autocast("cuda", enabled=enabled)
    else:
        return torch.cuda.amp.autocast(enabled)


class NativeScaler:
    def __init__(self, device="cuda"):
        try:
            self._scaler = torch.amp.GradScaler(device=device)
        except (AttributeError, TypeError):
            self._scaler = torch.cuda.amp.GradScaler()


class Brain:
    def __init__(self, device, enabled):
        # torch.GradScaler is the new API's other spelling (torch >= 2.3).
        if version.parse(torch.__version__) < version.parse("2.4.0"):
            self.scaler = torch.cuda.amp.GradScaler(enabled=enabled)
        else:
            self.scaler = torch.GradScaler(device, enabled=enabled)
