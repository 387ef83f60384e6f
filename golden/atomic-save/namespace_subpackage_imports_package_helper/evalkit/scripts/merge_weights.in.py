"""A script folder without __init__.py: run by path, so it keeps its own helper."""

import torch


def merge(model, lora, path):
    model.load_state_dict(lora, strict=False)
    torch.save(model.state_dict(), path)
