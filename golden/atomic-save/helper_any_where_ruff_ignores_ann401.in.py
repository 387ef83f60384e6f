"""ANN is on but ANN401 ignored: the helper keeps `typing.Any`."""

import torch


def save_checkpoint(model: torch.nn.Module, path: str) -> None:
    torch.save(model.state_dict(), path)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)
