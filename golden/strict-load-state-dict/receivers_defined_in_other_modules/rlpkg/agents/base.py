from torch import nn

from rlpkg.networks import QNetwork


class BaseAgent(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__()
        self.q_net = QNetwork(obs_dim, n_actions)
