import torch.distributed.tensor as dt
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from torch.distributed.tensor import DeviceMesh, Shard


def shard(model, mesh: DeviceMesh, weight):
    fully_shard(model, mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16))
    return dt.distribute_tensor(weight, mesh, [Shard(0)])


import torch  # noqa: E402
