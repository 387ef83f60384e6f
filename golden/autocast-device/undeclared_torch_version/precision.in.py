import torch


def autocast_dtype() -> torch.dtype:
    if torch.is_autocast_enabled():
        return torch.get_autocast_gpu_dtype()
    return torch.float32
