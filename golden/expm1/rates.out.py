# golden-args: --unsafe-fixes
import torch
import torch as th


def rates(log_rate, x, alpha):
    rate = torch.expm1(log_rate)
    elu = alpha * (th.expm1(x))
    again = torch.exp(torch.expm1(x)) - 1  # the inner one only: the outer would swallow it
    return rate, elu, again
