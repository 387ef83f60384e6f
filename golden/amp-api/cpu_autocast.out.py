import torch
from torch.amp import autocast as cpu_autocast
from torch.amp import autocast


def infer(model, batch, device: torch.device):
    if device.type == "cuda":
        with autocast("cuda"):
            return model(batch.to(device))
    with cpu_autocast("cpu", dtype=torch.bfloat16):
        return model(batch)


def calibrate(model, batches):
    scaler = torch.amp.GradScaler("cpu", init_scale=1024.0)
    with torch.amp.autocast("cpu", enabled=True, dtype=torch.bfloat16, cache_enabled=False):
        for batch in batches:
            scaler.scale(model(batch).sum()).backward()
    return scaler
