"""Checkpointing for the image classifier."""

from __future__ import annotations

import os
from pathlib import Path

import torch

CHECKPOINT_DIR = Path("checkpoints")


def save_checkpoint(model, optimizer, epoch, path):
    torch.save(
        {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch},
        path,
    )


def save_best(model, run_dir):
    torch.save(model.state_dict(), os.path.join(run_dir, "best.pt"))


def save_epoch(model, epoch):
    torch.save(model.state_dict(), CHECKPOINT_DIR / f"epoch_{epoch:03d}.pt")
    torch.save(model.state_dict(), f"{CHECKPOINT_DIR}/last.pt")  # what resume() reads


def run_save_checkpoint(model, optimizer, epoch, path):
    save_checkpoint(model, optimizer, epoch, path)


def run_save_best(model, run_dir):
    save_best(model, run_dir)


def run_save_epoch(model, epoch):
    save_epoch(model, epoch)
