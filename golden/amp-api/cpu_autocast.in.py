import torch
from torch.cpu.amp import autocast as cpu_autocast
from torch.cuda.amp import autocast


def infer(model, batch, device: torch.device):
    if device.type == "cuda":
        with autocast():
            return model(batch.to(device))
    with cpu_autocast(dtype=torch.bfloat16):
        return model(batch)


def calibrate(model, batches):
    scaler = torch.cpu.amp.GradScaler(init_scale=1024.0)
    with torch.cpu.amp.autocast(True, torch.bfloat16, False):
        for batch in batches:
            scaler.scale(model(batch).sum()).backward()
    return scaler
