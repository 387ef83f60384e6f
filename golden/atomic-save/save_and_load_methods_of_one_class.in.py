# golden-args: --unsafe-fixes
# A class whose `save(path)` writes the file its `load(path)` reads back: the pair makes
# it a checkpoint a run resumes from, though the two name the path alike only by
# parameter (muse-maskgit's `MaskGit.save`, round 20). The caller picks the path, and
# round 27 called the same pair in torchdrug's `Engine` noise: an unsafe fix.
from pathlib import Path

import torch
from torch import nn


class MaskGit(nn.Module):
    def save(self, path):
        torch.save(self.state_dict(), path)

    def load(self, path):
        path = Path(path)
        state_dict = torch.load(str(path), weights_only=True)
        self.load_state_dict(state_dict)
