from torch.optim.lr_scheduler import CyclicLR, ReduceLROnPlateau


def reduce_lr_on_plateau(optimizer, factor=0.1, patience=10, verbose=False):
    return ReduceLROnPlateau(optimizer, factor=factor, patience=patience, verbose=verbose)


def cyclic_lr(optimizer, base_lr, max_lr):
    return CyclicLR(optimizer, base_lr, max_lr, verbose=False)
