# Half-migrated code: these calls pass a device, which the torch.cuda.amp APIs do not take.
import torch
from torch.cuda.amp import GradScaler, autocast


def train(model, batch, amp_args, device):
    # Written for torch.amp: they only need the new module (GradScaler's import moves).
    scaler = GradScaler("cuda")
    with torch.cuda.amp.autocast("cuda"):
        loss = model(batch)
    # `autocast` stays: its use below cannot be migrated, so this call keeps failing.
    with autocast(device_type="cuda", dtype=torch.float16):
        loss = model(batch)
    with autocast(*amp_args):
        loss = loss + model(batch)
    # A device in a variable: torch.cuda.amp takes it as `enabled` and autocasts on CUDA,
    # torch.amp would autocast on whatever device it names.
    with torch.cuda.amp.autocast(device.type, dtype=torch.bfloat16):
        loss = loss + model(batch)
    with torch.cuda.amp.autocast(device, enabled=False):
        loss = loss + model(batch).float()
    other = torch.cuda.amp.GradScaler(device.type if device.type == "xpu" else "cuda")
    # A device keyword and positional arguments: both would name the device.
    with torch.cuda.amp.autocast(True, device_type="cuda"):
        loss = loss + model(batch)
    return scaler.scale(loss), other


class Square(torch.autograd.Function):
    @staticmethod
    @torch.cuda.amp.custom_fwd(device_type="cuda")
    def forward(ctx, x):
        return x * x
