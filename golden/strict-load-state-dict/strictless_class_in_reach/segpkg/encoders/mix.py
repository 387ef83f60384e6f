from torch import nn


class MixEncoder(nn.Module):
    def load_state_dict(self, state_dict):
        state_dict.pop("head.weight", None)
        return super().load_state_dict(state_dict)


mix_encoders = {"mit_b0": {"encoder": MixEncoder}}
