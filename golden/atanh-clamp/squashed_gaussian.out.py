# golden-args: --unsafe-fixes
import torch
from torch.distributions import Normal


def _atanh(x: torch.Tensor) -> torch.Tensor:
    x = torch.clamp(x, -1.0 + max(1e-06, torch.finfo(x.dtype).eps), 1.0 - max(1e-06, torch.finfo(x.dtype).eps))
    return 0.5 * (torch.log1p(x) - torch.log1p(-x))


class SquashedNormal:
    def __init__(self, mean, std):
        self.dist = Normal(mean, std)

    def log_prob(self, action):
        u = _atanh(action)
        return self.dist.log_prob(u).sum(-1) - torch.log(torch.clamp(1.0 - action.pow(2), min=1e-6)).sum(-1)

    def log_prob_clipped(self, y):
        clipped_y = y.clamp(-1.0 + max(1e-7, torch.finfo(y.dtype).eps), 1.0 - max(1e-7, torch.finfo(y.dtype).eps))
        raw_y = torch.atanh(clipped_y)
        return self.dist.log_prob(raw_y)
