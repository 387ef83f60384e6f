import torch as th

ATANH_LIMIT = 0.9999


def inverse(y):
    return th.atanh(th.clip(y, min=-ATANH_LIMIT, max=ATANH_LIMIT))


def tanh_correction(actions, epsilon=1e-6):
    return th.log(1 - actions**2 + epsilon).sum(dim=1)
