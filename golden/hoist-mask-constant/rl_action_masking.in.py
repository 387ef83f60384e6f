import torch
from torch import nn
from torch.distributions import Categorical


class MaskedPolicy(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU())
        self.logits = nn.Linear(128, n_actions)

    def forward(self, obs: torch.Tensor, action_mask: torch.Tensor) -> Categorical:
        logits = self.logits(self.body(obs))
        # Invalid actions get a huge negative logit, so their probability is ~0.
        logits = logits.masked_fill(~action_mask, torch.tensor(-1e8, device=logits.device))
        return Categorical(logits=logits)

    def greedy(self, obs: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
        logits = self.logits(self.body(obs))
        logits.masked_fill_(action_mask.logical_not(), torch.tensor(float("-inf")))
        return logits.argmax(-1)
