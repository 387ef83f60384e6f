"""Mixed-precision helpers other modules import from here."""
from torch.cuda.amp import autocast, custom_fwd
from torch.amp import GradScaler

__all__ = ["autocast", "make_scaler"]


def make_scaler(enabled=True):
    return GradScaler("cuda", enabled=enabled)
