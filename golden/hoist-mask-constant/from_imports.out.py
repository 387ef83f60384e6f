from math import inf

from torch import Tensor, tensor, where
from torch import masked_fill as fill_where


def masked_max(x: Tensor, mask: Tensor) -> Tensor:
    return x.masked_fill(~mask, -inf).amax(-1)


def fill_ignored(labels: Tensor, ignore: Tensor) -> Tensor:
    return where(ignore, -100, labels)


def probs(p: Tensor, mask: Tensor) -> Tensor:
    return p.masked_fill(mask, 0)


def as_tensor_batch(values: list) -> Tensor:
    return tensor(values)  # still needs the import


def pad(x: Tensor, padding: Tensor) -> Tensor:
    return fill_where(x, padding, 0.0)
