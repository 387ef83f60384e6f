import torch


def load_weights(model, path):
    model.load_state_dict(torch.load(path, map_location="cpu"))
