# golden-args: --unsafe-fixes
import torch


def load_pretrained(model):
    # A .pkl file holds a pickled object, even where load_state_dict reads it.
    model.load_state_dict(torch.load("trained_model.pkl"))


def load_weights(model, path):
    model.load_state_dict(torch.load(path, weights_only=True))


def save(state, path):
    # A saver handed a state dict is not a generic saver.
    torch.save(state, path)
