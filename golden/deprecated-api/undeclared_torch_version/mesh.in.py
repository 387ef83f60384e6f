import torch
from torch.distributed._tensor import DeviceMesh, Shard


def shard(mesh: DeviceMesh, dim: int) -> list[Shard]:
    return [Shard(dim) for _ in range(mesh.ndim)]


def fused(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.tanh(x)
