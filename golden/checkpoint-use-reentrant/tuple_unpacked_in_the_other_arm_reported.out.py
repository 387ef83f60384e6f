"""The vendored HTSAT of laion-clap (audioldm2, audiosr, msclap: rounds 33 and 34): the
checkpointed arm binds the block's `(x, attn)` to `x` and breaks the next block, keyword
or not. Reported; the well-formed call below is fixed."""

import torch.utils.checkpoint as checkpoint
from torch import nn


class BasicLayer(nn.Module):
    def forward(self, x):
        attns = []
        for blk in self.blocks:
            if self.use_checkpoint:
                x = checkpoint.checkpoint(blk, x)
            else:
                x, attn = blk(x)
                attns.append(attn)
        return x, attns


class Plain(nn.Module):
    def forward(self, x):
        if self.use_checkpoint:
            x = checkpoint.checkpoint(self.block, x, use_reentrant=True)
        else:
            x = self.block(x)
        return x
