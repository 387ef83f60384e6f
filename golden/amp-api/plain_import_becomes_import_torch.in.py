import os

import torch.cuda.amp
import torch.nn as nn


class AmpTrainer:
    def __init__(self, model: nn.Module, amp: bool):
        self.model = model
        self.scaler: torch.cuda.amp.GradScaler = torch.cuda.amp.GradScaler(enabled=amp)
        self.amp = amp
        self.log_dir = os.environ.get("LOG_DIR", "runs")

    def forward(self, batch):
        with torch.cuda.amp.autocast(enabled=self.amp):
            return self.model(batch)
