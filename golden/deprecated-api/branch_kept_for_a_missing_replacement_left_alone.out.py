# torchnet (round 30) keeps `torch.range` in the branch for a torch without `arange`:
# rewriting that branch would make it the same as the other. Left alone; the same call
# outside such a branch is rewritten.
import torch


def targets():
    if hasattr(torch, "arange"):
        t = torch.arange(0, 16).long()
    else:
        t = torch.range(0, 15).long()
    if not hasattr(torch, "arange"):
        u = torch.range(0, 2)
    else:
        u = torch.arange(0, 3)
    return t, u, torch.arange(0, 4, dtype=torch.get_default_dtype())
