import torch


def train(model, optimizer, loader, epochs, path):
    for epoch in range(epochs):
        for batch in loader:
            optimizer.zero_grad()
            model(batch).sum().backward()
            optimizer.step()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "epoch": epoch}, path)
