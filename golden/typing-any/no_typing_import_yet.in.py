"""Replay buffer helpers."""
import numpy as np


def sample(buffer: any, batch_size: int) -> any:
    idx = np.random.randint(0, len(buffer), size=batch_size)
    return [buffer[i] for i in idx]
