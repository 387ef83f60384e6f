# The contrast to per_step_snapshots_nothing_loads_untouched (video-diffusion-pytorch's
# Trainer, round 24): `load(step)` reads the snapshots back, so the save is reported, but
# each save names a new file by its step and a crash tears only the newest. Reviewers
# split on this very pattern (video-diffusion's and emp-ssl's accepted, mc-dropout-
# pytorch's `model-{milestone}.pt` called noise in round 47): an unsafe fix.
import os
from pathlib import Path

import torch


class Trainer:
    def __init__(self, model, results_folder="./results"):
        self.model = model
        self.results_folder = Path(results_folder)

    def save(self, step):
        torch.save(self.model.state_dict(), str(self.results_folder / f"model-{step}.pt"))

    def load(self, step):
        data = torch.load(str(self.results_folder / f"model-{step}.pt"))
        self.model.load_state_dict(data)


class CheckpointManager:
    # neurotorch (round 56): the name is made by a method from the iteration, two
    # assignments away from the save
    def __init__(self, folder="./checkpoints"):
        self.folder = folder

    def get_checkpoint_filename(self, itr):
        return f"checkpoint-itr{itr}.pth"

    def save_checkpoint(self, itr, state_dict):
        save_name = self.get_checkpoint_filename(itr)
        path = os.path.join(self.folder, save_name)
        torch.save({"itr": itr, "model": state_dict}, path)

    def load_checkpoint(self, itr):
        return torch.load(os.path.join(self.folder, self.get_checkpoint_filename(itr)))
