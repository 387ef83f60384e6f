# golden-args: --unsafe-fixes
import math

import torch


def scatter_embeddings(encoded_patches, counts):
    # a numerical sanity check of what the model computed: left alone
    assert not torch.isnan(encoded_patches).any()
    assert encoded_patches.isfinite().all()
    return encoded_patches.split(counts)


def weigh(losses, weights):
    # with a message, a check of what the caller hands in: an unsafe fix
    if not torch.isfinite(weights).all():
        raise ValueError("weights must be finite")
    return (losses * weights).sum()


def schedule(learning_rate: float):
    if math.isnan(learning_rate):
        raise ValueError("learning_rate is NaN")
    return learning_rate
