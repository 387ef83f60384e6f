import torch

CONFIG = {"amp": True}


def forward(model, batch):
    with torch.cuda.amp.autocast(enabled=CONFIG["amp"]):
        return model(batch)
