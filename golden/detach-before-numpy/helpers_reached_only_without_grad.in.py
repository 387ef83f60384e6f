# golden-args: --unsafe-fixes
import torch
from lightning.pytorch import LightningModule


def nms(model, poses):
    # Reached only through `Decoder.__call__` (no_grad) -> `decode_one`: left alone.
    kept = model(poses)
    return kept.cpu().numpy()


def refine(model, poses):
    # Also called from `train_step`, with grad on: a model's output, fixed.
    refined = model(poses)
    return refined.cpu().numpy()


class Decoder:
    @torch.no_grad()
    def __call__(self, model, batch):
        return [self.decode_one(model, item) for item in batch] + [refine(model, batch)]

    def decode_one(self, model, item):
        return nms(model, item)


def train_step(model, batch):
    return refine(model, batch)


class Regressor(LightningModule):
    def validation_step(self, batch, batch_idx):
        self._plot(batch)

    def test_step(self, batch, batch_idx):
        self._plot(batch)

    def training_step(self, batch, batch_idx):
        return self._log(batch)

    def _plot(self, batch):
        # Called only from validation_step / test_step: Lightning runs them without grad.
        preds = self.model(batch)
        return preds.cpu().numpy()

    def _log(self, batch):
        preds = self.model(batch)
        return preds.cpu().numpy()
