import torch


def train_epoch(model, loader, optimizer, use_amp=True):
    scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
    for inputs, targets in loader:
        optimizer.zero_grad(set_to_none=True)
        with torch.amp.autocast("cuda", enabled=use_amp):
            loss = torch.nn.functional.mse_loss(model(inputs), targets)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
