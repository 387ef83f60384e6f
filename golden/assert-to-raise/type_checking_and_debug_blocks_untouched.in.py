import typing
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from torch import Tensor

    assert Tensor is not None


def clip(values, low, high):
    if TYPE_CHECKING:
        assert isinstance(values, Tensor)
    if typing.TYPE_CHECKING:
        assert low is not None
    if __debug__:
        assert low <= high, "expensive consistency check"
    return values.clamp(low, high)
