import torch.nn.functional as F
from torch import nn


class TemporalBlock(nn.Module):
    def __init__(self, channels: int, dilation: int = 2):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size=3, padding=dilation,
                              dilation=dilation)
        self.act = nn.GELU()
        self.norm = nn.LayerNorm(channels)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        residual = x
        h = self.drop(self.act(self.conv(x)))
        h = self.norm(h + residual)
        return h


class Encoder(nn.Module):
    def __init__(self, in_channels, hidden=64):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv1d(in_channels, hidden, kernel_size=5, padding=2),
            nn.ReLU(),
            nn.LayerNorm(hidden),
        )
        self.proj = nn.Conv1d(hidden, 128, 1)

    def forward(self, x):
        x = self.stem(x)
        x = F.relu(self.proj(x))
        return F.layer_norm(x, (128,))
