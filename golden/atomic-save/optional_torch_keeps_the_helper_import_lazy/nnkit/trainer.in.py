"""torch imported at the top: the package helper's import is fine here."""

import torch


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)
    return torch.cuda.is_available()
