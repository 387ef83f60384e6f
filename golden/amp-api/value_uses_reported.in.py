import contextlib
import functools

import torch
from torch.cuda.amp import autocast


def amp_context(use_amp: bool):
    ctx = autocast if use_amp else contextlib.nullcontext
    return ctx()


bf16_autocast = functools.partial(torch.cuda.amp.autocast, dtype=torch.bfloat16)


class LoggingScaler(torch.cuda.amp.GradScaler):
    def update(self, new_scale=None):
        super().update(new_scale)
        print("scale", self.get_scale())


SCALER_CLS = torch.cuda.amp.GradScaler
