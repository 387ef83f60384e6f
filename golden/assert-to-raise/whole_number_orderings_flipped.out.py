import torch


def stack_batches(batches, min_batches: int, scale: float, dim: int = 0):
    # whole numbers on both sides: the flipped comparison reads as the maintainer writes it
    if len(batches) <= 1:
        raise ValueError("expected len(batches) > 1")
    if min_batches < 0:
        raise ValueError("expected min_batches >= 0")
    if batches[0].ndim < 2:
        raise ValueError("expected batches[0].ndim >= 2")
    if batches[0].shape[dim] > 4096:
        raise ValueError("expected batches[0].shape[dim] <= 4096")
    if batches[0].size(1) >= min_batches * 2:
        raise ValueError("expected batches[0].size(1) < min_batches * 2")
    if batches[0].dim() - 1 < -dim:
        raise ValueError("expected batches[0].dim() - 1 >= -dim")
    num_channels = batches[0].shape[1]  # bound once to a whole number
    if num_channels > 255:
        raise ValueError("expected num_channels <= 255")
    # a float (NaN) on either side: `not (a > b)` keeps what the assert did with NaN
    if not (scale > 0):
        raise ValueError("expected scale > 0")
    if not (len(batches) > scale):
        raise ValueError("expected len(batches) > scale")
    assert batches[0].mean() >= 0
    limit = float(scale)  # bound to a float: may be NaN
    if not (len(batches) >= limit):
        raise ValueError("expected len(batches) >= limit")
    # a chain stays negated as a whole
    if not (0 <= min_batches < 10):
        raise ValueError("expected 0 <= min_batches < 10")
    return torch.cat(batches, dim=dim)


def rebound(count: int = None):
    if count is None:
        count = default_count()  # not the int parameter alone: may be a float
    if not (count > 0):
        raise ValueError("expected count > 0")
    return count
