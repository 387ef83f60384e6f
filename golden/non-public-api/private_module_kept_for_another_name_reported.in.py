# phytorchx (round 56): `default_collate_fn_map` has no public name, so the private module
# stays imported whatever happens to `default_collate`: reported, not rewritten.
import torch
from torch.utils.data._utils.collate import default_collate, default_collate_fn_map


class Masked(torch.Tensor):
    pass


def collate_masked(batch, *, collate_fn_map=None):
    return default_collate([torch.as_tensor(item) for item in batch])


default_collate_fn_map[Masked] = collate_masked
