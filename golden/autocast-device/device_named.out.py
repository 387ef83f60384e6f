import torch


def cast_like_autocast(x):
    if torch.is_autocast_enabled():
        return x.to(torch.get_autocast_dtype("cuda"))
    if torch.is_autocast_enabled("cpu"):
        return x.to(torch.get_autocast_dtype("cpu"))
    return x


def configure(enabled):
    torch.set_autocast_enabled(enabled)
    torch.set_autocast_dtype("cuda", torch.bfloat16)
