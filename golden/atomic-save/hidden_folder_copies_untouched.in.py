# golden-path: mmseg/.mim/tools/train_loop.py
# golden-args: --unsafe-fixes
import torch


def train(model, epochs, path):
    for epoch in range(epochs):
        torch.save(model.state_dict(), path)
