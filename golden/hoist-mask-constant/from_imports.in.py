from math import inf

from torch import Tensor, scalar_tensor, tensor, where
from torch import masked_fill as fill_where


def masked_max(x: Tensor, mask: Tensor) -> Tensor:
    return x.masked_fill(~mask, tensor(-inf)).amax(-1)


def fill_ignored(labels: Tensor, ignore: Tensor) -> Tensor:
    return where(ignore, tensor(-100, dtype=labels.dtype), labels)


def probs(p: Tensor, mask: Tensor) -> Tensor:
    return p.masked_fill(mask, scalar_tensor(0, device=p.device))


def as_tensor_batch(values: list) -> Tensor:
    return tensor(values)  # still needs the import


def pad(x: Tensor, padding: Tensor) -> Tensor:
    return fill_where(x, padding, tensor(0.0))
