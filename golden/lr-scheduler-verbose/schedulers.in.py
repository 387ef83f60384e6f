import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau, StepLR


def schedulers(optimizer, args):
    step = StepLR(optimizer, step_size=30, gamma=0.1, verbose=False)
    plateau = ReduceLROnPlateau(optimizer, mode="min", patience=5, verbose=False)
    cosine = torch.optim.lr_scheduler.CosineAnnealingLR(
        optimizer,
        T_max=100,
        verbose=False,
    )
    return step, plateau, cosine
