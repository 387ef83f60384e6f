# golden-path: examples/train_mnist.py
# golden-args: --unsafe-fixes
import torch


def train(model, epochs):
    for epoch in range(epochs):
        torch.save(model.state_dict(), f"model_{epoch}.pt")


def resume(model, path):
    # An example that resumes from its checkpoints is still an example: users copy it,
    # and a 55-line helper pasted into each one is noise.
    model.load_state_dict(torch.load(path))
    for epoch in range(3):
        torch.save(model.state_dict(), path)
