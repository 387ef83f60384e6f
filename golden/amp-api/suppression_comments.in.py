import torch
from torch.cuda.amp import autocast


def forward(model, batch):
    # Pinned to the old API until the serving image gets torch 2.4.
    with autocast():  # torchfix: ignore[amp-api]
        return model(batch)


def make_scaler():
    return torch.cuda.amp.GradScaler()  # torchfix: ignore
