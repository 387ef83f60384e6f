import copy

import torch

from rlpkg.buffers import ExponentialMovingAverage, ReplayBuffer
from rlpkg.networks import TargetNetUpdater

from .base import BaseAgent


class DQNAgent(BaseAgent):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__(obs_dim, n_actions)
        self.target_net = copy.deepcopy(self.q_net)
        self.target_net_updater = TargetNetUpdater(self.target_net)
        self.replay_buffer = ReplayBuffer(100_000)
        self.ema = ExponentialMovingAverage(self.q_net.parameters(), decay=0.999)
        self.optimizer = torch.optim.Adam(self.q_net.parameters(), lr=1e-4)

    def resume(self, path: str) -> None:
        ckpt = torch.load(path, map_location="cpu")
        self.q_net.load_state_dict(ckpt["q_net"], strict=True)
        self.target_net.load_state_dict(ckpt["target_net"], strict=True)
        self.target_net_updater.load_state_dict(ckpt["updater"])
        self.replay_buffer.load_state_dict(ckpt["replay_buffer"])
        self.ema.load_state_dict(ckpt["ema"])
        self.optimizer.load_state_dict(ckpt["optimizer"])

    def reset_from(self, other: "DQNAgent") -> None:
        self.load_state_dict(other.state_dict())
