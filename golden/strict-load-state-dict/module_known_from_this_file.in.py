import torch
from torch import nn


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
        self.v = nn.Linear(obs_dim, 1)

    def load_pretrained(self, path):
        self.load_state_dict(torch.load(path, map_location="cpu"))
        self.v.load_state_dict(torch.load(path + ".value"))


class PPOAgent(ActorCritic):
    def reset_head(self, head_state):
        super().load_state_dict(head_state)


def evaluate(path, obs_dim, act_dim):
    agent = ActorCritic(obs_dim, act_dim).to("cpu")
    agent.load_state_dict(torch.load(path))
    return agent


def warm_start(m: nn.Module, ckpt: dict) -> None:
    m.load_state_dict(ckpt["weights"])
