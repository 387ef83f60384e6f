"""Replay buffer helpers."""
from typing import Any

import numpy as np


def sample(buffer: Any, batch_size: int) -> Any:
    idx = np.random.randint(0, len(buffer), size=batch_size)
    return [buffer[i] for i in idx]
