import torch

from rl import constants
from rl.constants import ACTION_LIMIT


def pretanh(action: torch.Tensor) -> torch.Tensor:
    return torch.atanh(action.clamp(-ACTION_LIMIT, ACTION_LIMIT))


def pretanh_qualified(action: torch.Tensor) -> torch.Tensor:
    return torch.atanh(torch.clamp(action, -constants.ACTION_LIMIT, constants.ACTION_LIMIT))
