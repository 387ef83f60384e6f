"""An example trainer of a project whose conda file is named for the project
(`ffcv-conda.yml`, round 32): it pins torch 1.9, where torch.amp has no GradScaler."""

import torch
from torch.cuda.amp import GradScaler, autocast


def train(model, loader, optimizer, loss_fn):
    scaler = GradScaler()
    for images, labels in loader:
        optimizer.zero_grad(set_to_none=True)
        with autocast():
            loss = loss_fn(model(images), labels)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    return torch.zeros(1)
