import torch

CONFIG = {"amp": True}


def forward(model, batch):
    with torch.amp.autocast('cuda', enabled=CONFIG["amp"]):
        return model(batch)
