"""torch.save is this module's only use of torch: the import goes with it."""

import os

import torch


class MambaModel:
    def save_pretrained(self, save_directory, state_dict=None):
        if state_dict is None:
            state_dict = self.state_dict()
        torch.save(state_dict, os.path.join(save_directory, "pytorch_model.bin"))
