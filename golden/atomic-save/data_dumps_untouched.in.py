"""Saves of data that running again makes anew: no training state, never loaded back."""

import os
import tarfile

import torch
from torch.utils.data import Dataset


class ActiveSearch:
    def on_train_epoch_end(self):
        # search results of this run, written once at its end
        save_path = self.hparams.save_path
        if save_path is not None:
            torch.save(
                {"solutions": self.instance_solutions, "rewards": self.instance_rewards},
                save_path,
            )


class SeriesDataSet(Dataset):
    def save(self, fname):
        torch.save(self, fname)  # the dataset, rebuilt from its frame at any time


def parse_devkit_archive(root, archive):
    def parse_meta(folder):
        return {}, {}

    with tarfile.open(os.path.join(root, archive)) as tar:
        tar.extractall(root)
    index_to_id, id_to_classes = parse_meta(os.path.join(root, "devkit"))
    ids = [index_to_id[index] for index in sorted(index_to_id)]
    torch.save((id_to_classes, ids), os.path.join(root, "meta.bin"))
