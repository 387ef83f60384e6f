import torch
import torch.amp as amp
from torch.cuda import nvtx
from torch import amp as cuda_amp


def step(model, batch, scaler: amp.GradScaler):
    with amp.autocast("cuda", enabled=True, dtype=torch.float16):
        nvtx.range_push("forward")
        loss = model(batch)
        nvtx.range_pop()
    scaler.scale(loss).backward()
    return loss


def make_scaler(init_scale=2.0**12):
    return cuda_amp.GradScaler("cuda", init_scale, growth_interval=500)
