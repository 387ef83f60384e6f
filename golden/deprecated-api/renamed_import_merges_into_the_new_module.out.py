from torch.distributed.checkpoint import FileSystemReader
from torch.distributed.tensor import DeviceMesh, DTensor


def local(tensor: DTensor, mesh: DeviceMesh, path: str):
    return FileSystemReader(path), tensor.to_local()
