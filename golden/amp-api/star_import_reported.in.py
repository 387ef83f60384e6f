from torch.cuda.amp import *


def forward(model, batch):
    with autocast():
        return model(batch)
