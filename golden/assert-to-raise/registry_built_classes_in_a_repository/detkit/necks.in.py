import torch.nn as nn

from .registry import MODELS


@MODELS.register_module()
class SSDNeck(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        assert len(out_channels) > len(in_channels), "out_channels must outnumber in_channels"
        self.in_channels = in_channels


@MODELS.register_module()
class YOLOV3Neck(nn.Module):
    def __init__(self, num_scales, in_channels):
        super().__init__()
        assert num_scales == len(in_channels)
        self.in_channels = in_channels
