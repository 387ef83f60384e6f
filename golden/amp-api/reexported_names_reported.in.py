"""Mixed-precision helpers other modules import from here."""
from torch.cuda.amp import GradScaler, autocast, custom_fwd

__all__ = ["autocast", "make_scaler"]


def make_scaler(enabled=True):
    return GradScaler(enabled=enabled)
