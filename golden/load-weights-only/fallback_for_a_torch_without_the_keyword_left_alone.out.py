# golden-args: --unsafe-fixes
"""The `except` arm loads the same file without `weights_only` for a torch whose
`torch.load` has no such keyword (instanseg, round 38): passing it there would make the
fallback the very call that failed."""

import torch


def load_dataset(path_of_pth):
    try:
        complete_dataset = torch.load(path_of_pth, weights_only=False)
    except TypeError:
        complete_dataset = torch.load(path_of_pth)
    return complete_dataset


def load_weights(model, path, other_path):
    try:
        state = torch.load(path, weights_only=True)
    except FileNotFoundError:
        state = torch.load(other_path, weights_only=True)  # another file
    model.load_state_dict(state)
