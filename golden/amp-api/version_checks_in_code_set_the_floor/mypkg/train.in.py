import torch


def train_step(model, batch, optimizer):
    scaler = torch.cuda.amp.GradScaler()
    with torch.cuda.amp.autocast():
        loss = model(batch).sum()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
