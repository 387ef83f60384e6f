import torch


def cast_like_autocast(x, device_type):
    if torch.is_autocast_enabled(device_type):
        return x.to(torch.get_autocast_dtype(device_type))
    return x
