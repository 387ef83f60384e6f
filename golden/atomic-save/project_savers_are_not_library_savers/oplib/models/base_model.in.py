"""The project's own `save_checkpoint`: a torch.save wrapper that atomic-save rewrites
too, so a call of it is no library saver writing the folder in place."""

from pathlib import Path

import torch


class BaseModel(torch.nn.Module):
    def save_checkpoint(self, save_folder, save_name):
        save_folder = Path(save_folder)
        torch.save(self.state_dict(), save_folder / f"{save_name}_state_dict.pt")
