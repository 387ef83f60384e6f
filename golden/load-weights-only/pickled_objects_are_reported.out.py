# golden-args: --unsafe-fixes
import io

import torch
import torch.nn as nn


def clone_module(module: nn.Module) -> nn.Module:
    # It reads back the module it just saved: weights_only=False, not True.
    with io.BytesIO() as bytesio:
        torch.save(module, bytesio)
        bytesio.seek(0)
        module_copy = torch.load(bytesio, weights_only=False)
    return module_copy


def copy_state(model):
    # A state dict round trip, returned: what callers do with it is not known here.
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    buffer.seek(0)
    return torch.load(buffer)


def restore_lightning(path):
    # A Lightning checkpoint holds hyperparameters and callback states: reported.
    return torch.load(f"{path}/last.ckpt", map_location="cpu")


def restore_lightning_by_name(folder):
    checkpoint = folder + "/epoch=3.ckpt"
    return torch.load(checkpoint)


def read_hyperparameters(path):
    checkpoint = torch.load(path, map_location="cpu")
    return checkpoint["hyper_parameters"]


def read_specifications(path):
    loaded = torch.load(path)
    return loaded.get("pyannote.audio")["specifications"]


def build_from_args(path):
    ckpt = torch.load(path)
    args = ckpt["config"]
    return args.arch, args.depth


def read_epoch(path):
    # Returned with its epoch, which may be a NumPy value: reported.
    ckpt = torch.load(path)
    return ckpt["epoch"], ckpt["model"]


def read_shape(path):
    table = torch.load(path, weights_only=True)
    return table.shape, table.dtype
