from typing import Optional

import lightning as L
import torch
from torch.cuda.amp import GradScaler, autocast


class LitClassifier(L.LightningModule):
    def __init__(self, backbone: torch.nn.Module, lr: float = 1e-3, fp16: bool = True):
        super().__init__()
        self.backbone = backbone
        self.lr = lr
        self.fp16 = fp16
        self.automatic_optimization = False
        self.scaler: Optional[GradScaler] = GradScaler(enabled=fp16)

    def training_step(self, batch, batch_idx):
        opt = self.optimizers()
        x, y = batch
        opt.zero_grad(set_to_none=True)
        with autocast(enabled=self.fp16, dtype=torch.float16):
            loss = torch.nn.functional.cross_entropy(self.backbone(x), y)
        self.scaler.scale(loss).backward()
        self.scaler.step(opt)
        self.scaler.update()
        self.log("train/loss", loss, prog_bar=True)
        return loss

    def on_save_checkpoint(self, checkpoint) -> None:
        checkpoint["scaler"] = self.scaler.state_dict()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr)
