import torch
from torch import nn


class Encoder(nn.Module):
    def resume(self, checkpoint, transform):
        self.load_state_dict(
            transform(checkpoint["encoder_state_dict"], prefix="m."), strict=True
        )
        missing = self.load_state_dict(
            transform(checkpoint["encoder"]), assign=False, strict=True
        )
        self.load_state_dict(
            transform(checkpoint["encoder_state_dict_with_long_name"]), strict=True
        )
        self.load_state_dict(
            torch.load(self.checkpoint_directory / "encoder_weights"), strict=True
        )
        outputs = self.report(
            missing, self.load_state_dict(
                transform(checkpoint["encoder_state_dict"]), strict=True
            )
        )
        self.load_state_dict(transform(checkpoint["encoder"]), strict=True)  # type: ignore[arg-type]
        self.load_state_dict(transform(checkpoint["the_encoder_state_dict_has_a_long_key_"]), strict=True)
        return missing, outputs


def resume_encoder(encoder: Encoder, checkpoint):
    encoder.load_state_dict(checkpoint["encoder"], strict=True)
    encoder.load_state_dict(
        checkpoint["encoder_state_dict_from_the_last_run_of_job"], strict=True
    )
