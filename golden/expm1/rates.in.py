# golden-args: --unsafe-fixes
import torch
import torch as th


def rates(log_rate, x, alpha):
    rate = torch.exp(log_rate) - 1
    elu = alpha * (th.exp(x) - 1.0)
    again = torch.exp(torch.exp(x) - 1) - 1  # the inner one only: the outer would swallow it
    return rate, elu, again
