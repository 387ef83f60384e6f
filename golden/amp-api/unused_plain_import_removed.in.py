import math

import torch
# mixed precision
import torch.cuda.amp
from torch import nn


def step(model: nn.Module, batch, optimizer, scaler):
    with torch.cuda.amp.autocast():
        loss = model(batch).float().mean() / math.sqrt(batch.shape[0])
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()


def eval_step(model, batch):
    import torch.cuda.amp
    with torch.cuda.amp.autocast():
        return model(batch)
