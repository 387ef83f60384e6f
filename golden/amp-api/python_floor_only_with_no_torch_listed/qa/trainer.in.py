# farm-haystack (round 30) lists transformers but no torch and supports Python 3.8: the
# newest torch its 3.8 users get is 2.4, but they may run any older one, so
# torch.amp.GradScaler (2.3) is an unsafe fix, not a safe one.
import torch


class Trainer:
    def __init__(self, use_amp=False):
        self.scaler = torch.cuda.amp.GradScaler(enabled=use_amp)
