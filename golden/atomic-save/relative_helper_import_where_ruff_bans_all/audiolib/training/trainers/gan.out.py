import os

from torch import nn

from audiolib._torchfix_atomic_save import atomic_save

from ...models import Generator
from . import __name__ as _trainer_package


class GanTrainer(nn.Module):
    def __init__(self, generator: Generator):
        super().__init__()
        self.generator = generator

    def save_checkpoint(self, folder):
        atomic_save(self.state_dict(), os.path.join(folder, "gan.ckpt"))
