import torch
from torch import nn


class Wrapper(nn.Module):
    def __init__(self, module, device=None):
        super().__init__()
        self.module = module
        if device is not None:
            self.module = self.module.to(device)

    def load(self, state_dict):
        self.module.load_state_dict(state_dict)


class Moved(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.net = nn.Linear(4, 4)
        self.net = self.net.to(device).eval()
        self.head = self.body
        self.body = self.head

    def load(self, state_dict):
        self.net.load_state_dict(state_dict["net"])
        self.head.load_state_dict(state_dict["head"])
