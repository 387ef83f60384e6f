# golden-args: --unsafe-fixes
import lightning.pytorch as pl
import torch
from lightning.pytorch.callbacks import Callback
from torch import nn


class Classifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(16, 4)

    def training_step(self, batch, batch_idx):
        logits = self.head(batch["x"])
        self.logger.experiment.add_histogram("logits", logits.detach().cpu().numpy())
        return logits.sum()

    def validation_step(self, batch, batch_idx):
        logits = self.head(batch["x"])
        self.logger.experiment.add_histogram("val_logits", logits.cpu().numpy())

    def test_step(self, batch, batch_idx):
        def log(values):
            self.logger.experiment.add_histogram("test", values.cpu().numpy())

        log(self.head(batch["x"]))

    def predict_step(self, batch, batch_idx):
        return self.head(batch["x"]).cpu().numpy()


class Task(pl.LightningDataModule):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def validation_step(self, batch, batch_idx):
        y_pred = self.model(batch["X"])
        return y_pred.cpu().numpy()


class Segmentation(Task):
    def validation_step(self, batch, batch_idx):
        y_pred = self.model(batch["X"])
        return y_pred.cpu().numpy()


class Plotter(Callback):
    def on_validation_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        scores = pl_module.head(batch["x"])
        trainer.logger.experiment.add_histogram("scores", scores.cpu().numpy())

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        scores = pl_module(batch["x"])
        trainer.logger.experiment.add_histogram("scores", scores.cpu().numpy())


class Plain:
    def validation_step(self, model, batch):
        scores = model(batch)
        return scores.cpu().numpy()
