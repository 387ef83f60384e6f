import torch as th
from torch import load as tload


def restore(model, ema, path):
    model.load_state_dict(th.load(path, "cpu", weights_only=True))
    ema.load_state_dict(tload(path, weights_only=True))
