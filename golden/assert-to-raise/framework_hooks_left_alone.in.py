# golden-args: --unsafe-fixes
import lightning.pytorch as pl
from lightning.pytorch.callbacks import Callback


class KNNOnlineEvaluator(Callback):
    def __init__(self, k: int = 200) -> None:
        assert k > 0, "k must be positive"
        self.k = k

    def on_validation_epoch_end(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        assert not trainer.model.training
        assert len(trainer.val_dataloaders) == 1

    def evaluate(self, features, k: int) -> None:
        assert features.ndim == 2, "features must be (batch, dim)"


class Probe:
    def on_batch_end(self, outputs: list) -> None:
        assert len(outputs) > 0, "outputs must not be empty"
