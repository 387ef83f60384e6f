"""gravitorch's AMP loops (round 39): torch.cuda.amp warns from torch 2.4 on, and the
project admits torch < 2.2 only, so the calls are not deprecated anywhere it runs (and
its tests check them as written)."""
from torch.cuda.amp import GradScaler, autocast


def train_one_batch(model, batch, optimizer, amp: bool):
    scaler = GradScaler(enabled=amp)
    with autocast(enabled=amp):
        loss = model(batch)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
