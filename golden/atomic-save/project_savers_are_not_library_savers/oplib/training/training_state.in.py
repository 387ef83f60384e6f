"""`model.save_checkpoint(save_dir, ...)` calls the project's own BaseModel method
(oplib/models/base_model.py), which torch.saves: the folder holds torch.saves only, and
each is rewritten (neuraloperator's save_training_state)."""

from pathlib import Path

import torch


def save_training_state(save_dir, save_name, model, optimizer=None):
    save_dir = Path(save_dir)
    model.save_checkpoint(save_dir, save_name)
    manifest = {"model": f"{save_name}_state_dict.pt"}
    if optimizer is not None:
        torch.save(optimizer.state_dict(), save_dir / "optimizer.pt")
        manifest["optimizer"] = "optimizer.pt"
    torch.save(manifest, save_dir / "manifest.pt")
