import os

import torch
from torch import nn

from ...models import Generator
from . import __name__ as _trainer_package


class GanTrainer(nn.Module):
    def __init__(self, generator: Generator):
        super().__init__()
        self.generator = generator

    def save_checkpoint(self, folder):
        torch.save(self.state_dict(), os.path.join(folder, "gan.ckpt"))
