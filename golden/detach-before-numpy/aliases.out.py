import torch as th
from torch import nn as tnn
from torch.nn import Conv1d, Parameter
from torch.nn.functional import relu


class Encoder(tnn.Module):
    def __init__(self):
        super().__init__()
        self.conv = Conv1d(8, 16, 3)
        self.scale = Parameter(th.ones(16, 1))

    def forward(self, x):
        return relu(self.conv(x)) * self.scale

    def features(self, x):
        return self(x).detach().to("cpu").numpy()

    @th.no_grad()
    def features_no_grad(self, x):
        return self(x).to("cpu").numpy()
