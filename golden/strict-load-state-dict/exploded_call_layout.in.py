from torch import nn


def load_encoder(encoder: nn.Module, checkpoint):
    encoder.load_state_dict(
        {k.removeprefix("module."): v for k, v in checkpoint["state_dict"].items()},
    )
    encoder.load_state_dict(
        checkpoint["state_dict"]  # already unwrapped
    )
