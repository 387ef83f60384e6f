import torch
from torch import nn


class QNetwork(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.body(obs)


class TargetNetUpdater:
    """Polyak-averages a target network; its state is the averaging step only."""

    def __init__(self, net: nn.Module, tau: float = 0.005):
        self.net = net
        self.tau = tau
        self.steps = 0

    def state_dict(self):
        return {"steps": self.steps}

    def load_state_dict(self, state_dict):
        self.steps = state_dict["steps"]
