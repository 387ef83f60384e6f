# golden-args: --unsafe-fixes
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.UpsamplingBilinear2d(scale_factor=2)
        self.up_nearest = nn.UpsamplingNearest2d(size=(32, 32))

    def forward(self, x):
        return self.up_nearest(self.up(x))
