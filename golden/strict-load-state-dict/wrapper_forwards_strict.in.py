from torch import nn


class EMAWrapper(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def load_state_dict(self, state_dict, strict=True):
        self.model.load_state_dict(state_dict)
