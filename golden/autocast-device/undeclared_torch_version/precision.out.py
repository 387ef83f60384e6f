import torch


def autocast_dtype() -> torch.dtype:
    if torch.is_autocast_enabled():
        return torch.get_autocast_dtype("cuda")
    return torch.float32
