import torch


def load_weights(model, path):
    # torch 2.5 is supported: there torch.load still unpickles anything by default.
    model.load_state_dict(torch.load(path, map_location="cpu"))
