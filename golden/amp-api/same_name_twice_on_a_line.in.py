import contextlib

from torch.cuda.amp import autocast


def region(use_amp, lazy=False):
    return (autocast() if not lazy else autocast) if use_amp else contextlib.nullcontext()
