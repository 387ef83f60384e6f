import torch


def restore(model, path):
    model.load_state_dict(torch.load(path))
