import torch

from rl import constants
from rl.constants import ACTION_LIMIT


def pretanh(action: torch.Tensor) -> torch.Tensor:
    return torch.atanh(action.clamp(max(-ACTION_LIMIT, -1.0 + torch.finfo(action.dtype).eps), min(ACTION_LIMIT, 1.0 - torch.finfo(action.dtype).eps)))


def pretanh_qualified(action: torch.Tensor) -> torch.Tensor:
    return torch.atanh(torch.clamp(action, max(-constants.ACTION_LIMIT, -1.0 + torch.finfo(action.dtype).eps), min(constants.ACTION_LIMIT, 1.0 - torch.finfo(action.dtype).eps)))
