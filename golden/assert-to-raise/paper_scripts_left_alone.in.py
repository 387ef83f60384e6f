# golden-path: paper/1.0/train_maskrcnn.py
# golden-args: --unsafe-fixes
"""The script that made a paper's figures, kept as it ran: nobody hardens it for -O."""
import numpy as np


def load_masks(masks: np.ndarray, min_size: int = 15):
    assert masks.ndim == 3, "masks must be stacked as (n, height, width)"
    assert min_size > 0
    return [mask for mask in masks if mask.sum() >= min_size]
