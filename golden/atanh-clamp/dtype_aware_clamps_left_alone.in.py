import torch


def atanh(x):
    return 0.5 * (x.log1p() - (-x).log1p())


def inverse(y):
    eps = torch.finfo(y.dtype).eps
    return atanh(y.clamp(min=-1.0 + eps, max=1.0 - eps))


def wide_margin(y):
    return torch.atanh(y.clamp(-0.99, 0.99))


def not_atanh(p):
    q = p.clamp(1e-7, 1 - 1e-7)
    return torch.log(q) - torch.log1p(-q)


def correction(a, scale):
    return torch.log(1 - a.pow(2) + scale * a)
