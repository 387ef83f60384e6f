from einops import rearrange
from torch import nn


class ChannelLayerNorm1d(nn.Module):
    """LayerNorm for Conv1d outputs shaped (batch, channels, time)."""

    def __init__(self, channels):
        super().__init__()
        self.ln = nn.LayerNorm(channels)

    def forward(self, x):
        return self.ln(x.transpose(1, 2)).transpose(1, 2)


class FeatureEncoder(nn.Module):
    def __init__(self, channels, frames):
        super().__init__()
        self.conv = nn.Conv1d(1, channels, kernel_size=10, stride=5)
        self.layer_norm = nn.LayerNorm(channels)
        self.time_norm = nn.LayerNorm(frames)
        self.post = nn.Conv1d(channels, channels, 3, padding=1)
        self.post_norm = nn.LayerNorm(channels)

    def forward(self, x):
        hidden = self.conv(x)
        hidden = hidden.transpose(-2, -1)
        hidden = self.layer_norm(hidden)
        over_time = self.time_norm(self.conv(x))  # normalizing over time, on purpose
        y = self.post(hidden.transpose(1, 2))
        y = rearrange(y, "b c t -> b t c")
        return self.post_norm(y), over_time


def make_block(channels):
    return nn.Sequential(
        nn.Conv1d(channels, channels, 3, padding=1),
        nn.GroupNorm(1, channels),
        nn.Conv2d(channels, channels, 1),
        nn.LayerNorm(channels),
    )
