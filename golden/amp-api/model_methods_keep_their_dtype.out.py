# torch.cuda.amp.autocast() always meant float16; torch.amp.autocast("cuda") takes the
# dtype of an enclosing autocast. A model's methods run inside their callers' autocast, so
# they keep the dtype; a training loop's autocast is the outermost and needs none.
import torch
import torch.nn as nn


class Block(nn.Module):
    def forward(self, x):
        with torch.amp.autocast("cuda", enabled=True, dtype=torch.float16):
            x = self.qkv(x)
        with torch.amp.autocast("cuda", enabled=False):
            x = self.proj(x)
        with torch.amp.autocast(
            "cuda",
            enabled=self.fp16,
            dtype=torch.float16,
        ):
            y = self.mlp(x)
        with torch.amp.autocast("cuda", dtype=torch.bfloat16):
            y = self.mlp(y)
        return y


class Trainer:
    def step(self, batch):
        with torch.amp.autocast("cuda"):
            return self.model(batch)


class CpuHead(Block):
    # a module through the file's own class: CPU autocast always meant bfloat16
    def forward(self, x):
        with torch.amp.autocast("cpu", dtype=torch.bfloat16):
            return self.head(x)
