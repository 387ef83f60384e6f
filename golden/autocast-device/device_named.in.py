import torch
from torch import get_autocast_gpu_dtype


def cast_like_autocast(x):
    if torch.is_autocast_enabled():
        return x.to(get_autocast_gpu_dtype())
    if torch.is_autocast_cpu_enabled():
        return x.to(torch.get_autocast_cpu_dtype())
    return x


def configure(enabled):
    torch.set_autocast_enabled(enabled)
    torch.set_autocast_gpu_dtype(torch.bfloat16)
