import torch

from agents.networks import MLP, Normalizer


class Critic:
    def __init__(self, obs_dim):
        self.net = MLP([obs_dim, 64, 64])
        self.norm = Normalizer()

    def value_histogram(self, obs: torch.Tensor):
        return self.net(obs).detach().cpu().numpy()

    def normalized(self, obs: torch.Tensor):
        return self.norm(obs).cpu().numpy()
