import torch


def index_batch(idx: torch.Tensor):
    # a feature still missing ("not yet"), not a bad value: NotImplementedError
    if idx.dim() != 2:
        raise NotImplementedError(f"multiple batch dims not yet {idx.shape=}")
    return idx


def from_dataset(dataset, loss):
    # an argument of the wrong type: TypeError
    if not isinstance(loss, torch.nn.Module):
        raise TypeError("loss must be a module")
    return dataset, loss


def pick_mode(mode: str):
    # "not supported" alone is a bad value: ValueError
    if mode not in ("sum", "mean"):
        raise ValueError(f"mode {mode} not supported")
    return mode
