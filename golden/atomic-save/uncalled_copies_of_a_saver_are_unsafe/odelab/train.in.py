import torch


def save_checkpoint(model, optimizer, epoch, path):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "epoch": epoch}, path)


def fit(model, optimizer, epochs, path):
    for epoch in range(epochs):
        model.train_epoch(optimizer)
        save_checkpoint(model, optimizer, epoch, path)
