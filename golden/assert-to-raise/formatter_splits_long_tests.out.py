# golden-args: --unsafe-fixes
import torch.nn as nn


class IdentityBasis(nn.Module):
    def __init__(self, backcast_size: int, forecast_size: int, interpolation_mode: str):
        super().__init__()
        if not (
            (interpolation_mode in ["linear", "nearest"])
            or ("cubic" in interpolation_mode)
        ):
            raise ValueError(
                'expected (interpolation_mode in ["linear", "nearest"]) or '
                '("cubic" in interpolation_mode)'
            )
        self.interpolation_mode = interpolation_mode

    def forward(self, x, conditioner, spectrogram_upsampler, conditioner_projection):
        if not (
            (conditioner is None and conditioner_projection is None)
            or (conditioner is not None and conditioner_projection is not None)
        ):
            raise ValueError(
                "expected (conditioner is None and conditioner_projection is None) or "
                "(conditioner is not None and conditioner_projection is not None)"
            )
        if not (
            0.0 < backcast_weight_of_the_first_block < forecast_weight_of_the_first
        ):
            raise ValueError(
                "expected 0.0 < backcast_weight_of_the_first_block < "
                "forecast_weight_of_the_first"
            )
        if not (
            (isinstance(x, str) and isinstance(conditioner, nn.Module))
            or (
                isinstance(x, tuple | list)
                and isinstance(conditioner, nn.ModuleList)
                and len(conditioner) == len(x)
            )
        ):
            raise ValueError(
                "number of inputs should be equivalent to number of conditioners"
            )
        if not (
            (conditioner.get("backcast_loss_ratio", 0) == 0)
            | (
                isinstance(conditioner["output_size"], int)
                and conditioner["output_size"] == 1
            )
            or all(o == 1 for o in conditioner["output_size"])
        ):
            raise ValueError("point forecasts only")
        if not isinstance(spectrogram_upsampler, (nn.ConvTranspose1d, nn.Upsample)):
            raise TypeError(
                "expected isinstance(spectrogram_upsampler, (nn.ConvTranspose1d, "
                "nn.Upsample))"
            )
        return x
