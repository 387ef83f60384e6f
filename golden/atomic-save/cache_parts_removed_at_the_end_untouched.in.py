# clip-benchmark (round 29) saves its features in numbered parts while it extracts them,
# reads the parts back, then removes every one: scratch files, no checkpoint. Left alone.
import os

import torch


def extract(featurizer, loader, feature_dir, save_str):
    features, num_cached = [], 0
    for batch_index, images in enumerate(loader):
        features.append(featurizer(images))
        if (batch_index + 1) % 100 == 0:
            torch.save(torch.cat(features), os.path.join(feature_dir, f"features{save_str}_cache_{num_cached}.pt"))
            num_cached += 1
            features = []
    parts = [torch.load(os.path.join(feature_dir, f"features{save_str}_cache_{k}.pt")) for k in range(num_cached)]
    for k in range(num_cached):
        os.remove(os.path.join(feature_dir, f"features{save_str}_cache_{k}.pt"))
    return torch.cat(parts)
