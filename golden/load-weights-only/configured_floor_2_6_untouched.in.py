import torch


def load_weights(model, path):
    model.load_state_dict(torch.load(path))


def load_embeddings(path):
    return torch.load(path)
