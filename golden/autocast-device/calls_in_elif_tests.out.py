import torch


def fast_path_blocker(mask, nested):
    if mask is not None:
        return "a mask was supplied"
    elif torch.is_autocast_enabled():
        return "autocast is enabled"
    elif nested and torch.get_autocast_dtype("cuda") == torch.float16:
        return "half precision nested input"
    return ""
