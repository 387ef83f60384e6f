import torch

MESSAGE = "no autocast"


def dtype_or_message():
    if torch.is_autocast_cpu_enabled():
        return torch.get_autocast_cpu_dtype()
    return MESSAGE
