# golden-args: --unsafe-fixes
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
        self.up_nearest = nn.Upsample(size=(32, 32), mode="nearest")

    def forward(self, x):
        return self.up_nearest(self.up(x))
