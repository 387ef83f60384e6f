# golden-args: --unsafe-fixes
# 1 - tanh(u)**2 computed from a fresh tanh never drops below 0, so `+ eps` already keeps
# the log finite, and keeps its gradient where a clamp at eps would zero it: left alone.
# A stored action may lie past 1 (clipped, rounded, from a replay buffer): clamped.
import torch
import torch.nn.functional as F


class SoftDeterministic:
    def _log_prob(self, normal, raw):
        log_prob = normal.log_prob(raw)
        log_prob -= torch.log(1 - torch.tanh(raw).pow(2) + 1e-6)
        return log_prob.sum(-1)

    def sample(self, normal):
        u = normal.rsample()
        action = torch.tanh(u)
        correction = torch.log(1.0 - action.pow(2) + 1e-6).sum(-1)
        squashed = u.tanh()
        other = torch.log(1 - squashed * squashed + 1e-6) + torch.log(1 - F.tanh(u) ** 2 + 1e-6)
        return action, normal.log_prob(u).sum(-1) - correction - other.sum(-1)

    def evaluate(self, normal, u, stored):
        return normal.log_prob(u).sum(-1) - torch.log(torch.clamp(1 - stored.pow(2), min=1e-6)).sum(-1)
