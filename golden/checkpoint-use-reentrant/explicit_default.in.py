import torch.utils.checkpoint
from torch import nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


class Encoder(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.blocks = nn.ModuleList(blocks)

    def forward(self, hidden, mask):
        for block in self.blocks:
            hidden = checkpoint(block, hidden, mask)
        hidden = torch.utils.checkpoint.checkpoint(self.blocks[0], hidden, mask,
                                                   preserve_rng_state=False)
        return checkpoint_sequential(self.blocks, 2, hidden)
