# golden-args: --unsafe-fixes
from torch.optim.lr_scheduler import ExponentialLR


def scheduler(optimizer, args):
    return ExponentialLR(optimizer, gamma=0.99)
