# A function some callers run under no_grad: reported, not fixed (rounds 24 and 25).
import torch
from torch import nn


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.fc = nn.Linear(obs_dim, n_actions)

    def forward(self, obs):
        return self.fc(obs)

    def q_values(self, obs):
        # Called under no_grad below: the original works there, so the fix is unsafe.
        return self.fc(obs).cpu().numpy()


def greedy(qnet: QNet, obs):
    with torch.no_grad():
        return qnet.q_values(obs).argmax()
