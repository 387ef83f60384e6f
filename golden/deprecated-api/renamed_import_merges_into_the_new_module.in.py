from torch.distributed._tensor import DeviceMesh
from torch.distributed.checkpoint import FileSystemReader
from torch.distributed.tensor import DTensor


def local(tensor: DTensor, mesh: DeviceMesh, path: str):
    return FileSystemReader(path), tensor.to_local()
