import torch


def has_nan(tensors: list[torch.Tensor]) -> bool:
    return any(torch.isnan(t).any() for t in tensors)


def check(flags: "any") -> bool:
    any_nan: bool = any(flags)
    return any_nan


def shadowed():
    any = object
    value: any = None
    return value
