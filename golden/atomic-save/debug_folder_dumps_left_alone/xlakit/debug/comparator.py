import os

import torch


def save_tensor(tensor, name, save_dir, step):
    # torch-xla's model comparator (round 46): one file per tensor, to compare two runs;
    # a crashed debugging run is simply run again
    path = os.path.join(save_dir, f"step-{step}", f"{name}.pt")
    torch.save(tensor.cpu(), path)
    return tensor
