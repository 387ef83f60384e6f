"""Replay buffer helpers."""
import numpy as np
from typing import Any


def sample(buffer: Any, batch_size: int) -> Any:
    idx = np.random.randint(0, len(buffer), size=batch_size)
    return [buffer[i] for i in idx]
