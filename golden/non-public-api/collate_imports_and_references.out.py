import torch
from torch.utils.data import DataLoader, default_collate, default_convert


def make_loader(dataset, batch_size):
    return DataLoader(dataset, batch_size=batch_size, collate_fn=default_collate)


def to_tensors(sample):
    return default_convert(sample)


def collate_pairs(batch):
    left = torch.utils.data.default_collate([pair[0] for pair in batch])
    return left, [pair[1] for pair in batch]
