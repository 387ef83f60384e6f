from torch.cuda.amp import amp_definitely_not_available
from torch.amp import GradScaler, autocast


def setup(use_amp):
    if amp_definitely_not_available():
        use_amp = False
    return GradScaler("cuda", enabled=use_amp), use_amp


def forward(model, batch, use_amp):
    with autocast("cuda", enabled=use_amp):
        return model(batch)
