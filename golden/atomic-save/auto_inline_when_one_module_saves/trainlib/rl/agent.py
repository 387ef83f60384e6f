import io

import torch
from torch import nn


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def to_bytes(self) -> bytes:
        # A save to a buffer is left alone: this module does not count as one that saves.
        buffer = io.BytesIO()
        torch.save(self.state_dict(), buffer)
        return buffer.getvalue()
