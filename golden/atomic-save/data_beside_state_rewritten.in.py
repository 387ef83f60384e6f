"""Saves that look like data dumps but hold training state, recur or are resumed from."""

import torch
from torch import nn


class SwAV(nn.Module):
    def setup(self):
        self.queue = torch.load(self.queue_path)["queue"]

    def on_train_epoch_end(self):
        torch.save({"queue": self.queue}, self.queue_path)  # loaded back: resumed from


class Trainer:
    def on_train_epoch_end(self):
        torch.save({"epoch": self.current_epoch, "solutions": self.solutions}, self.out)

    def finish(self, net, ckpt_path):
        torch.save((net.state_dict(), self.solutions), ckpt_path)

    def export(self, path):
        torch.save(self, path)  # the trainer itself: not a dataset

    def write_all(self, ckpt_paths):
        for ckpt_path in ckpt_paths:
            torch.save({"solutions": self.solutions}, ckpt_path)  # in a loop


class SeriesDataSet:
    def save_checkpoint(self, results, fname):
        torch.save({"results": results}, fname)  # the function says checkpoint
