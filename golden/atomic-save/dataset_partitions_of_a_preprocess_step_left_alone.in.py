# fedlab's partitioned datasets (round 28): `preprocess()` builds each client's dataset
# from the raw data and saves it; `get_dataset()` loads it back. A crash costs a re-run of
# the step, not a checkpoint: left alone. So is fintorch's `process_dir` (round 49), which
# writes a tensor per annotation file it lists.
import os

import torch
from torch.utils.data import Dataset


class BaseDataset(Dataset):
    def __init__(self, data, labels):
        self.data, self.labels = data, labels


class PartitionedData:
    def __init__(self, path, num_clients):
        self.path, self.num_clients = path, num_clients

    def preprocess(self, data, labels):
        for client in range(self.num_clients):
            dataset = BaseDataset(data[client::self.num_clients], labels[client::self.num_clients])
            torch.save(dataset, os.path.join(self.path, f"data{client}.pkl"))

    def process_dir(self, annotation_dir, target_dir):
        for file in os.listdir(annotation_dir):
            sample = {"image": torch.load(os.path.join(annotation_dir, file))}
            torch.save(sample, os.path.join(target_dir, os.path.splitext(file)[0] + ".pt"))

    def get_dataset(self, client):
        return torch.load(os.path.join(self.path, f"data{client}.pkl"), weights_only=False)
