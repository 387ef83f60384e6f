import os
import torch as th


class Encoder(th.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = th.nn.Linear(dim, dim)

    @th.amp.autocast("cuda")
    def forward(self, x):
        return self.proj(x)

    @th.amp.autocast("cuda", enabled=False)
    def loss(self, x, y):
        return th.nn.functional.mse_loss(x.float(), y.float())


def workers():
    return os.cpu_count()
