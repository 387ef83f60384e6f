# golden-args: --unsafe-fixes
from pathlib import Path

import numpy as np
import torch


def load_model(path, device):
    # A whole pickled module: weights_only=True can never load it.
    model = torch.load(path, map_location=device, weights_only=False)
    model.eval()
    return model


def predict(path, batch):
    return torch.load(path, weights_only=False)(batch)


def load_cache(path):
    if torch.__version__ < "2.6":
        return torch.load(path, weights_only=False)
    return torch.load(path, weights_only=False)


def load_landmarks(path: Path) -> dict[str, np.ndarray]:
    landmarks = torch.load(path)
    return {key: np.asarray(value) for key, value in landmarks.items()}


def load_queue(path):
    # Nothing says this holds more than tensors: weights_only=True, as an unsafe fix.
    return torch.load(path)["queue"]


def load_any_torch(path):
    try:
        return torch.load(path, weights_only=True)
    except TypeError:  # torch < 1.13 has no weights_only: this load is for it
        return torch.load(path)
