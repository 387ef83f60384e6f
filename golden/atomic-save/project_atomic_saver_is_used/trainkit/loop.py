import torch


def train(model, steps, path):
    for _ in range(steps):
        model.step()
        torch.save(model.state_dict(), path)
