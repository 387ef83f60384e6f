"""Mixed precision through a module alias, half of it already written for torch.amp."""
import torch
import torch.cuda.amp as torch_amp


class Trainer:
    def __init__(self, model, optimizer, use_amp: bool):
        self.model = model
        self.optimizer = optimizer
        self.use_amp = use_amp
        self.scaler = torch_amp.GradScaler(enabled=use_amp)

    def step(self, batch):
        self.optimizer.zero_grad(set_to_none=True)
        # torch.cuda.amp.autocast has no device_type: this only works once migrated.
        with torch_amp.autocast(device_type="cuda", dtype=torch.float16, enabled=self.use_amp):
            loss = self.model(batch).mean()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.detach()
