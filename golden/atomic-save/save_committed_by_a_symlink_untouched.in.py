# wavegrad and diffwave (round 31) save each checkpoint under a new name and only then
# repoint the `weights.pt` symlink that resuming reads: the link is the commit, so a
# crash mid-save leaves the old checkpoint in place. Left alone.
import os

import torch


class Learner:
    def __init__(self, model_dir, model):
        self.model_dir = model_dir
        self.model = model
        self.step = 0

    def save_to_checkpoint(self, filename="weights"):
        save_basename = f"{filename}-{self.step}.pt"
        save_name = f"{self.model_dir}/{save_basename}"
        link_name = f"{self.model_dir}/{filename}.pt"
        torch.save({"model": self.model.state_dict(), "step": self.step}, save_name)
        if os.path.islink(link_name):
            os.unlink(link_name)
        os.symlink(save_basename, link_name)

    def restore_from_checkpoint(self, filename="weights"):
        state = torch.load(f"{self.model_dir}/{filename}.pt", weights_only=True)
        self.model.load_state_dict(state["model"])
