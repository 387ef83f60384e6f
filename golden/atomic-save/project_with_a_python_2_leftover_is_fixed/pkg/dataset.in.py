import os

import torch


class Trainer:
    def save_checkpoint(self, model):
        name = f"{type(model).__name__}.pt"
        torch.save(model.state_dict(), os.path.join(self.root, "checkpoint", name))
