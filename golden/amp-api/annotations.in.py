from __future__ import annotations

from typing import Optional

from torch.cuda import amp
from torch.cuda.amp import GradScaler


def restore(state: dict, scaler: Optional[GradScaler] = None) -> "GradScaler":
    scaler = scaler or GradScaler()
    scaler.load_state_dict(state["scaler"])
    return scaler


def fresh(enabled: bool) -> "amp.GradScaler":
    return amp.GradScaler(enabled=enabled)
