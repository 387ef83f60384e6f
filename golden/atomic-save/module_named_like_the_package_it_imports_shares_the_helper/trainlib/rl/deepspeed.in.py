from pathlib import Path

import deepspeed
import torch
from torch import nn

from .buffers import ReplayBuffer


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions, capacity=100_000):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))
        self.buffer = ReplayBuffer(capacity, obs_dim)

    def engine(self, config):
        return deepspeed.initialize(model=self, config=config)

    def save(self, folder: Path):
        torch.save(self.state_dict(), folder / "agent.pt")
        torch.save(self.buffer.state_dict(), folder / "replay.pt")
