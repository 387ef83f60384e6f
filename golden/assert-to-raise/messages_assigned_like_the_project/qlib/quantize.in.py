"""Like the rest of the project (nncf 3.4.0 raised 421 messages assigned first and 1
written inline, with no lint configuration in its wheel; round 22), the converted
assert assigns its message before raising it."""
import torch


def quantize(weight: torch.Tensor, group_size: int) -> torch.Tensor:
    assert group_size > 0, "group_size must be positive"
    return weight.reshape(-1, group_size)
