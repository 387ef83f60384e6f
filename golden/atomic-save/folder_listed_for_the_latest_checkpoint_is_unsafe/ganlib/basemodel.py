"""Each checkpoint gets a step-stamped name; the trainer resumes from the folder's newest
(torch-mimicry, round 33): a temporary folder a crash leaves there would be "newest"."""

import os

import torch
from torch import nn


class BaseModel(nn.Module):
    def save_checkpoint(self, directory, global_step, optimizer=None):
        if not os.path.exists(directory):
            os.makedirs(directory)
        ckpt_dict = {
            "model_state_dict": self.state_dict(),
            "optimizer_state_dict": optimizer.state_dict() if optimizer is not None else None,
            "global_step": global_step,
        }
        name = f"{os.path.basename(directory)}_{global_step}_steps.pth"
        torch.save(ckpt_dict, os.path.join(directory, name))

    def restore_checkpoint(self, ckpt_file, optimizer=None):
        ckpt_dict = torch.load(ckpt_file)
        self.load_state_dict(ckpt_dict["model_state_dict"])
        return ckpt_dict["global_step"]
