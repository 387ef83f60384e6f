import torch
from torch import nn


class Encoder(nn.Module):
    def resume(self, checkpoint, transform):
        self.load_state_dict(transform(checkpoint["encoder_state_dict"], prefix="m."))
        missing = self.load_state_dict(transform(checkpoint["encoder"]), assign=False)
        self.load_state_dict(transform(checkpoint["encoder_state_dict_with_long_name"]))
        self.load_state_dict(torch.load(self.checkpoint_directory / "encoder_weights"))
        outputs = self.report(
            missing, self.load_state_dict(transform(checkpoint["encoder_state_dict"]))
        )
        self.load_state_dict(transform(checkpoint["encoder"]))  # type: ignore[arg-type]
        self.load_state_dict(transform(checkpoint["the_encoder_state_dict_has_a_long_key_"]))
        return missing, outputs


def resume_encoder(encoder: Encoder, checkpoint):
    encoder.load_state_dict(checkpoint["encoder"])
    encoder.load_state_dict(checkpoint["encoder_state_dict_from_the_last_run_of_job"])
