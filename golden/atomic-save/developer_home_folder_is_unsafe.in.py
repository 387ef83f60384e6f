# agent-torch (round 49): a legacy trainer that names its developer's own folders at the
# top. It runs on one machine; its owner decides what it should protect: an unsafe fix
# (its reviewer called the safe rewrite noise).
import os

import torch

MODEL_PATH = "/Users/jane/Documents/GitHub/MacroEcon/models"


def train(model, optimizer, epochs):
    for epoch in range(epochs):
        optimizer.step()
        torch.save(model.state_dict(), os.path.join(MODEL_PATH, "checkpoint.pt"))


def main(model, optimizer):
    train(model, optimizer, 10)
