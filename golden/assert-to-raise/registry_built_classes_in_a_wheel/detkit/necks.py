import torch.nn as nn

from .registry import MODELS


@MODELS.register_module()
class SSDNeck(nn.Module):
    def __init__(self, in_channels, out_channels, level_strides):
        super().__init__()
        assert len(out_channels) > len(in_channels), "out_channels must outnumber in_channels"
        assert len(level_strides) == len(out_channels) - len(in_channels)
        self.in_channels = in_channels
        self.num_levels = len(out_channels)

    def forward(self, inputs):
        assert len(inputs) == len(self.in_channels)
        return inputs

    def predict(self, x, cls_scores, score_factors, scale):
        assert len(x) == self.num_levels
        assert len(cls_scores) == len(score_factors)
        assert x[0].dim() == 4 and len(x) >= 1
        assert scale > 0, "scale must be positive"
        return x


class PlainNeck(nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        assert len(in_channels) > 0, "give at least one input"
        self.in_channels = in_channels

    def forward(self, inputs):
        assert len(inputs) == len(self.in_channels)
        return inputs
