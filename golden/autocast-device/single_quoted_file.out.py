import torch


def _cast_if_autocast_enabled(tensor: torch.Tensor) -> torch.Tensor:
    if torch.is_autocast_enabled():
        if tensor.device.type == 'cuda':
            dtype = torch.get_autocast_dtype('cuda')
        elif tensor.device.type == 'cpu':
            dtype = torch.get_autocast_dtype('cpu')
        else:
            raise NotImplementedError()
        return tensor.to(dtype=dtype)
    return tensor
