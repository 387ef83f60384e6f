import os

import torch
from torch.distributed import checkpoint as dist_cp
from torch.distributed.checkpoint.metadata import Metadata
from torch.distributed.distributed_c10d import ProcessGroup
from torch.distributed.tensor import DeviceMesh


def load(path: str, mesh: DeviceMesh, group: ProcessGroup) -> Metadata:
    return dist_cp.FileSystemReader(os.fspath(path)).read_metadata()


def zeros(mesh: DeviceMesh):
    return torch.zeros(2)
