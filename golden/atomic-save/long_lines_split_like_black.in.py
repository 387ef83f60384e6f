# golden-args: --unsafe-fixes
"""The helper's name is longer than `torch.save`: a line that fit and no longer does is
laid out as black and ruff format would, and nothing else moves."""

import os

import torch


class PredictionWriter:
    def write_on_batch_end(self, prediction, batch_idx):
        torch.save(prediction, os.path.join(self.output_dir, f"pred_{batch_idx}.pt"))

    def write_on_epoch_end(self, checkpoints):
        torch.save(checkpoints, os.path.join(self.output_dir, "checkpoints.pt"))

    def write_all(self, state, optimizer, scheduler):
        if self.enabled:
            torch.save({"state": state, "opt": optimizer, "sch": scheduler}, self.path)

    def write_wide(self, model, optimizer, f):
        if self.enabled:
            torch.save({"model": model.state_dict(), "opt": optimizer.state_dict()}, f)

    def already_split(self, prediction, batch_idx):
        torch.save(
            prediction, os.path.join(self.output_dir, f"checkpoints_{batch_idx}.pt")
        )

    def with_comment(self, prediction, batch_idx):
        torch.save(prediction, os.path.join(self.output_dir, f"b_{batch_idx}.pt"))  # ok

    def with_pragma(self, prediction, batch_idx):
        torch.save(prediction, os.path.join(self.output_dir, "b.pt"))  # noqa: S614

    def already_too_long(self, prediction, batch_idx):
        torch.save(prediction, os.path.join(self.output_dir, f"checkpoints_{batch_idx}.pt"))

    def short(self, prediction):
        torch.save(prediction, self.path)


SAVERS = {
    "raw": {"extension": "pth", "saver": torch.save, "kwargs": {"protocol": 4}},
}
