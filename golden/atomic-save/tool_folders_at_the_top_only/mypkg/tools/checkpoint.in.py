import torch


def train(model, optimizer, loader, epochs, path):
    for epoch in range(epochs):
        for batch in loader:
            optimizer.zero_grad()
            model(batch).mean().backward()
            optimizer.step()
        torch.save({"model": model.state_dict(), "epoch": epoch}, path)


def run_train(model, optimizer, loader, epochs, path):
    train(model, optimizer, loader, epochs, path)
