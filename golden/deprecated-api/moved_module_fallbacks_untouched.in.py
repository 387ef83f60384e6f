# A try/except ImportError that picks the new module where it exists, or the old one
# first and the new one as its fallback: each arm is a version fallback, left alone.
try:
    # for torch 2.5+
    from torch.distributed.tensor import DTensor
except ImportError:
    from torch.distributed._tensor import DTensor

try:
    from torch.distributed._tensor import Shard
except (ImportError, AttributeError):
    from torch.distributed.tensor import Shard

try:
    import torch.distributed.tensor as dt
except ModuleNotFoundError:
    import torch.distributed._tensor as dt

try:
    from torch.distributed.tensor import Replicate
except ImportError:
    import torch.distributed._tensor
    Replicate = torch.distributed._tensor.Replicate

try:
    from torch.func import vmap
except ImportError:
    import functorch
    vmap = functorch.vmap


def shard(tensor: DTensor, mesh):
    return dt.distribute_tensor(tensor, mesh, [Shard(0), Replicate()])


batched_shard = vmap(shard)
