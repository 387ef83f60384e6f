import torch


def dtype():
    return torch.get_autocast_gpu_dtype()
