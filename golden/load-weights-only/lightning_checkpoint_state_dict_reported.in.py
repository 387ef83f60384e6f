# meds-torch (round 49): a module of a Lightning project loads the Trainer's checkpoint and
# reads its "state_dict". The checkpoint also holds the hyperparameters
# `save_hyperparameters()` pickled (the datamodule's DictConfig), which weights_only=True
# refuses: reported, no fix. A plain weights file loaded the same way elsewhere keeps its fix.
import torch
from lightning import LightningModule


def evaluate(model: LightningModule, ckpt_path):
    checkpoint = torch.load(ckpt_path, map_location="cpu")
    model.load_state_dict(checkpoint["state_dict"])
    return model
