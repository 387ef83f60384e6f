from torch.utils.data import DataLoader


def loaders(train_set, val_set, cfg, **loader_kwargs):
    train = DataLoader(train_set, batch_size=64, num_workers=8, pin_memory=True)
    val = DataLoader(val_set, batch_size=64, num_workers=cfg.workers)
    other = DataLoader(val_set, **loader_kwargs)
    return train, val, other
