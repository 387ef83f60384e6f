from torch.cuda.amp import (
    GradScaler,
    amp_definitely_not_available,
    autocast,
)


def setup(use_amp):
    if amp_definitely_not_available():
        use_amp = False
    return GradScaler(enabled=use_amp), use_amp


def forward(model, batch, use_amp):
    with autocast(enabled=use_amp):
        return model(batch)
