# golden-args: --unsafe-fixes
# invariant-point-attention and igfold (round 30): an initial value, softplus^-1(1), where
# exp(1) - 1 loses nothing. Left alone; a small constant is still rewritten.
import torch


def init_weights(heads):
    point_weights = torch.log(torch.exp(torch.full((heads,), 1.0)) - 1.0)
    gamma = torch.log(torch.exp(torch.ones(heads)) - 1.0)  # igfold-pytorch (round 41)
    scale = torch.exp(torch.tensor(0.5)) - 1
    tiny = torch.expm1(torch.tensor(1e-6))
    return point_weights, gamma, scale, tiny
