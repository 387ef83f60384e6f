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
        assert (isinstance(x, str) and isinstance(conditioner, nn.Module)) or (
            isinstance(x, tuple | list)
            and isinstance(conditioner, nn.ModuleList)
            and len(conditioner) == len(x)
        ), "number of inputs should be equivalent to number of conditioners"
        assert (conditioner.get("backcast_loss_ratio", 0) == 0) | (
            isinstance(conditioner["output_size"], int)
            and conditioner["output_size"] == 1
        ) or all(o == 1 for o in conditioner["output_size"]), "point forecasts only"
        assert isinstance(spectrogram_upsampler, (nn.ConvTranspose1d, nn.Upsample))
        return x
