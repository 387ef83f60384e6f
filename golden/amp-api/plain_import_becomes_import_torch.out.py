import os

import torch
import torch.nn as nn


class AmpTrainer:
    def __init__(self, model: nn.Module, amp: bool):
        self.model = model
        self.scaler: torch.amp.GradScaler = torch.amp.GradScaler("cuda", enabled=amp)
        self.amp = amp
        self.log_dir = os.environ.get("LOG_DIR", "runs")

    def forward(self, batch):
        with torch.amp.autocast("cuda", enabled=self.amp):
            return self.model(batch)
