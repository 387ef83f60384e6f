# golden-args: --unsafe-fixes
# cell2location's log_sum_exp (round 28): the maximum is subtracted through locals
# (`m, _ = torch.max(...)`, `value0 = value - m`) before the exp: the sum cannot overflow,
# and the rewrite would stabilise twice. Left alone.
import torch


def log_sum_exp(value, dim):
    m, _ = torch.max(value, dim=dim, keepdim=True)
    value0 = value - m
    m = m.squeeze(dim)
    return m + torch.log(torch.sum(torch.exp(value0), dim=dim))
