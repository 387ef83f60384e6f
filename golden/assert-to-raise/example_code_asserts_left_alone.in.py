# golden-path: examples/custom_callback_event.py
# golden-args: --unsafe-fixes
from accelerate_trainer import Trainer, TrainerCallback


class VerifyBatchCallback(TrainerCallback):
    def verify_train_batch(self, trainer, xb, yb):
        # an example shows what holds; its asserts are not a library's input checks
        assert xb.shape[0] == trainer.run_config.train_per_device_batch_size
        assert xb.shape[1] == 1


def main(num_epochs: int = 3):
    assert num_epochs > 0
    Trainer(callbacks=[VerifyBatchCallback()]).train(num_epochs=num_epochs)
