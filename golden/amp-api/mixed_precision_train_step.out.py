import torch
from torch.amp import GradScaler, autocast
from torch.utils.data import DataLoader


def train_one_epoch(model, loader: DataLoader, optimizer, use_amp: bool, clip: float = 1.0):
    scaler = GradScaler("cuda", enabled=use_amp)
    model.train()
    for images, targets in loader:
        images, targets = images.cuda(non_blocking=True), targets.cuda(non_blocking=True)
        optimizer.zero_grad(set_to_none=True)
        # The old API took `enabled` first; torch.amp takes the device first.
        with autocast("cuda", enabled=use_amp):
            loss = torch.nn.functional.cross_entropy(model(images), targets)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        scaler.step(optimizer)
        scaler.update()
    return scaler.get_scale()


@torch.no_grad()
def evaluate(model, loader):
    with torch.amp.autocast("cuda", dtype=torch.bfloat16):
        return sum(model(x).argmax(-1).eq(y).sum().item() for x, y in loader)
