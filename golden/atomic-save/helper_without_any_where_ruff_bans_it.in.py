"""ruff's ANN401 is on, allow-star-arg-any is not: no bare `Any` in the helper."""

import torch


def save_checkpoint(model: torch.nn.Module, path: str) -> None:
    torch.save(model.state_dict(), path)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)
