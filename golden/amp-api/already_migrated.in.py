"""Formerly used torch.cuda.amp; now on torch.amp."""
import torch
from torch.amp import GradScaler, autocast


def train_step(model, batch, optimizer, scaler: GradScaler):
    with autocast("cuda", dtype=torch.float16):
        loss = model(batch)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    # torch.cuda.amp.autocast() used to be here
    return torch.amp.GradScaler("cpu")
