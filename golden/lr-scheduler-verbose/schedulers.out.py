import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau, StepLR


def schedulers(optimizer, args):
    step = StepLR(optimizer, step_size=30, gamma=0.1)
    plateau = ReduceLROnPlateau(optimizer, mode="min", patience=5)
    cosine = torch.optim.lr_scheduler.CosineAnnealingLR(
        optimizer,
        T_max=100,
    )
    return step, plateau, cosine
