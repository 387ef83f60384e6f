import torch
from packaging import version

# The project declares no torch version, but this branch runs on torch older than 1.10:
# its code still supports torch 1.9.
if version.parse(torch.__version__) >= version.parse("1.10"):
    meshgrid = torch.meshgrid
else:
    def meshgrid(*tensors, indexing="ij"):
        return torch.meshgrid(*tensors)
