import torch
from torch.utils.data import DataLoader


def loaders(train_set, val_set, test_set, cfg):
    train = DataLoader(train_set, batch_size=64, shuffle=True)
    val = torch.utils.data.DataLoader(val_set, batch_size=64, num_workers=0)
    test = DataLoader(test_set, 64, False, None, None, 0)
    return train, val, test
