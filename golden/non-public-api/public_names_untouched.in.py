from torch.utils.data import DataLoader, default_collate


def make_loader(dataset):
    return DataLoader(dataset, collate_fn=default_collate)
