# golden-args: --unsafe-fixes
import torch as th
from torch import nn


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def save(self, path):
        th.save(self.state_dict(), path)
