from torch.utils.data._utils.collate import default_collate


def collate(batch):
    return default_collate(batch)
