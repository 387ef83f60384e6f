import torch


class ReplayBuffer:
    def __init__(self, capacity, obs_dim):
        self.obs = torch.zeros(capacity, obs_dim)
        self.size = 0

    def state_dict(self):
        return {"obs": self.obs[: self.size]}
