# torch.cuda.amp.autocast() always meant float16; torch.amp.autocast("cuda") takes the
# dtype of an enclosing autocast. A model's methods run inside their callers' autocast, so
# they keep the dtype; a training loop's autocast is the outermost and needs none.
import torch
import torch.nn as nn


class Block(nn.Module):
    def forward(self, x):
        with torch.cuda.amp.autocast(True):
            x = self.qkv(x)
        with torch.cuda.amp.autocast(enabled=False):
            x = self.proj(x)
        with torch.cuda.amp.autocast(
            enabled=self.fp16,
        ):
            y = self.mlp(x)
        with torch.cuda.amp.autocast(dtype=torch.bfloat16):
            y = self.mlp(y)
        return y


class Trainer:
    def step(self, batch):
        with torch.cuda.amp.autocast():
            return self.model(batch)


class CpuHead(Block):
    # a module through the file's own class: CPU autocast always meant bfloat16
    def forward(self, x):
        with torch.cpu.amp.autocast():
            return self.head(x)
