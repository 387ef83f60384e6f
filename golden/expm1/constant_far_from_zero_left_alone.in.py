# golden-args: --unsafe-fixes
# invariant-point-attention and igfold (round 30): an initial value, softplus^-1(1), where
# exp(1) - 1 loses nothing. Left alone; a small constant is still rewritten.
import torch


def init_weights(heads):
    point_weights = torch.log(torch.exp(torch.full((heads,), 1.0)) - 1.0)
    gamma = torch.log(torch.exp(torch.ones(heads)) - 1.0)  # igfold-pytorch (round 41)
    scale = torch.exp(torch.tensor(0.5)) - 1
    tiny = torch.exp(torch.tensor(1e-6)) - 1
    return point_weights, gamma, scale, tiny


def etdrk_coefficients(lr, dt):
    # torchfsm's ETDRK (round 51): a contour of complex points kept away from 0, whose
    # real part is taken; expm1 gains nothing there, and complex expm1 is newer
    return dt * torch.mean((torch.exp(lr) - 1) / lr, axis=-1).real
