import os, torch.cuda.amp
import torch as th


class Encoder(th.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = th.nn.Linear(dim, dim)

    @th.cuda.amp.autocast()
    def forward(self, x):
        return self.proj(x)

    @th.cuda.amp.autocast(enabled=False)
    def loss(self, x, y):
        return th.nn.functional.mse_loss(x.float(), y.float())


def workers():
    return os.cpu_count()
