"""A save to a name the function picks as unused (openml-pytorch's `model_<i>.pth`,
round 44) never overwrites a file: an atomic save protects nothing. Waiting on another
path (a lock) says nothing of the checkpoint's name."""

import os
import time
from pathlib import Path

import torch


def add_torch_model_to_run(run, model):
    file_name = "model.pth"
    if os.path.exists(file_name):
        i = 1
        while os.path.exists(f"model_{i}.pth"):
            i += 1
        file_name = f"model_{i}.pth"
    torch.save(model.state_dict(), file_name)
    run.add_file(open(file_name, "rb"), file_name)
    return run


def keep_new_snapshot(model, folder: Path):
    index = 0
    while (folder / f"snapshot_{index}.pt").exists():
        index += 1
    torch.save(model.state_dict(), folder / f"snapshot_{index}.pt")


def save_checkpoint(model, optimizer, folder: Path):
    while (folder / "train.lock").exists():
        time.sleep(1)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()},
               folder / "checkpoint.pt")
