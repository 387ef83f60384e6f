# golden-args: --unsafe-fixes
from pathlib import Path

import torch


def load_members(models, ckpt_dir):
    # The folder's files may be Lightning checkpoints (.ckpt): reported, as a `.ckpt`
    # path anywhere else is.
    paths = sorted(p for p in Path(ckpt_dir).iterdir() if p.suffix in [".pt", ".ckpt"])
    for model, path in zip(models, paths):
        loaded = torch.load(path, map_location="cpu")
        state = loaded["state_dict"] if "state_dict" in loaded else loaded
        model.load_state_dict(state)


def load_plain_members(models, ckpt_dir):
    # Only .pt / .pth files: state dicts, so weights_only=True is offered.
    paths = sorted(p for p in Path(ckpt_dir).iterdir() if p.suffix in [".pt", ".pth"])
    for model, path in zip(models, paths):
        loaded = torch.load(path, map_location="cpu", weights_only=True)
        state = loaded["state_dict"] if "state_dict" in loaded else loaded
        model.load_state_dict(state)
