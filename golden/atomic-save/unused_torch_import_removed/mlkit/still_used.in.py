"""torch is used beside torch.save: the import stays."""

import torch


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)
    return torch.cuda.is_available()
