import torch

MESSAGE = "no autocast"


def dtype_or_message():
    if torch.is_autocast_enabled('cpu'):
        return torch.get_autocast_dtype('cpu')
    return MESSAGE
