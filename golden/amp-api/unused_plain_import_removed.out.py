import math

import torch
# mixed precision
from torch import nn


def step(model: nn.Module, batch, optimizer, scaler):
    with torch.amp.autocast("cuda"):
        loss = model(batch).float().mean() / math.sqrt(batch.shape[0])
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()


def eval_step(model, batch):
    with torch.amp.autocast("cuda"):
        return model(batch)
