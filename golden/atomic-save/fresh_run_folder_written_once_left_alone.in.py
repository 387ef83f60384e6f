"""A file written once into a folder its function has just made with a mkdir that fails
where the folder exists is new: there is no older file for a rename to keep (torch-world's
`episodes.pt`, round 45). A folder that may exist, a save in a loop, or a mkdir whose
failure is caught keep the rewrite."""

import os
from pathlib import Path

import torch


def run_goal_reaching(output, collect, config):
    output = Path(output)
    output.mkdir(parents=True, exist_ok=False)
    episodes = collect(config)
    torch.save(episodes, output / "episodes.pt")
    return episodes


def run_arm(output_dir, collect, config):
    os.makedirs(output_dir)
    torch.save({"episodes": collect(config), "epoch": 0}, os.path.join(output_dir, "checkpoint.pt"))


def train_into_existing(output, model, optimizer):
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()},
               output / "checkpoint.pt")


def train_epochs(output, model, optimizer, epochs):
    output = Path(output)
    output.mkdir(parents=True, exist_ok=False)
    for epoch in range(epochs):
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "epoch": epoch}, output / "checkpoint.pt")


def resume_or_start(output, model, optimizer):
    output = Path(output)
    try:
        output.mkdir(parents=True)
    except FileExistsError:
        pass
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()},
               output / "checkpoint.pt")
