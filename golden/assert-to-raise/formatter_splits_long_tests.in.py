# golden-args: --unsafe-fixes
import torch.nn as nn


class IdentityBasis(nn.Module):
    def __init__(self, backcast_size: int, forecast_size: int, interpolation_mode: str):
        super().__init__()
        assert (interpolation_mode in ["linear", "nearest"]) or (
            "cubic" in interpolation_mode
        )
        self.interpolation_mode = interpolation_mode

    def forward(self, x, conditioner, spectrogram_upsampler, conditioner_projection):
        assert (conditioner is None and conditioner_projection is None) or (
            conditioner is not None and conditioner_projection is not None
        )
        assert 0.0 < backcast_weight_of_the_first_block < forecast_weight_of_the_first
        assert isinstance(spectrogram_upsampler, (nn.ConvTranspose1d, nn.Upsample))
        return x
