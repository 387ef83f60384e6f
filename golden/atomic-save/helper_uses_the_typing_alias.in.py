"""The module imports typing under another name: the helper says `t.Any`."""

import os
import typing as t

import torch


def save_checkpoint(state: t.Dict[str, t.Any], folder: str) -> None:
    torch.save(state, os.path.join(folder, "checkpoint.pt"))


def run_save_checkpoint(state, folder):
    save_checkpoint(state, folder)
