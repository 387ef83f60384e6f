import torch
import torch.cuda.amp as amp
from torch.cuda import amp as cuda_amp, nvtx


def step(model, batch, scaler: amp.GradScaler):
    with amp.autocast(True, torch.float16):
        nvtx.range_push("forward")
        loss = model(batch)
        nvtx.range_pop()
    scaler.scale(loss).backward()
    return loss


def make_scaler(init_scale=2.0**12):
    return cuda_amp.GradScaler(init_scale, growth_interval=500)
