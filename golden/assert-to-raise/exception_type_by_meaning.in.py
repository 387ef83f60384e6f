import torch


def index_batch(idx: torch.Tensor):
    # a feature still missing ("not yet"), not a bad value: NotImplementedError
    assert idx.dim() == 2, f"multiple batch dims not yet {idx.shape=}"
    return idx


def from_dataset(dataset, loss):
    # an argument of the wrong type: TypeError
    assert isinstance(loss, torch.nn.Module), "loss must be a module"
    return dataset, loss


def pick_mode(mode: str):
    # "not supported" alone is a bad value: ValueError
    assert mode in ("sum", "mean"), f"mode {mode} not supported"
    return mode
