# golden-path: examples/train_mnist.py
import torch


def train(model, epochs):
    for epoch in range(epochs):
        torch.save(model.state_dict(), f"model_{epoch}.pt")
