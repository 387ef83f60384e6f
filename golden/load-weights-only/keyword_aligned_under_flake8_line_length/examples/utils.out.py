# advertorch's examples (round 25): flake8 at its default 79 (a `[flake8]` section with no
# max-line-length), and a load on a continuation line inside another call, which black's
# split does not lay out. The keyword goes on a line of its own, aligned with the opening
# bracket, as pycodestyle's visual indent has it, instead of making an 82-column line.
import os

import torch

TRAINED_MODEL_PATH = "trained_models"


def get_mnist_lenet5_clntrained(model):
    filename = "mnist_lenet5_clntrained.pt"
    model.load_state_dict(
        torch.load(os.path.join(TRAINED_MODEL_PATH, filename),
                   weights_only=True))
    model.eval()
    return model


def get_short(model, path):
    model.load_state_dict(torch.load(path, weights_only=True))
    return model
