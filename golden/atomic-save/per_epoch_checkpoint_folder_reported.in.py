# A checkpoint that is a folder named per epoch, whose model file another writer puts in
# place: the optimizer file replaces nothing, and alone made atomic it leaves the folder
# as torn as before (pythae's trainers, round 19). Reported with what would make the
# checkpoint atomic; the same save into a folder kept across epochs is rewritten.
import os

import torch


class Trainer:
    def save_checkpoint(self, model, dir_path: str, epoch: int) -> None:
        checkpoint_dir = os.path.join(dir_path, f"checkpoint_epoch_{epoch}")
        os.makedirs(checkpoint_dir, exist_ok=True)
        torch.save(self.optimizer.state_dict(), os.path.join(checkpoint_dir, "optimizer.pt"))
        model.save(checkpoint_dir)
        self.training_config.save_json(checkpoint_dir, "training_config")

    def save_last(self, model, dir_path: str) -> None:
        torch.save(self.optimizer.state_dict(), os.path.join(dir_path, "optimizer.pt"))
        model.save(dir_path)
