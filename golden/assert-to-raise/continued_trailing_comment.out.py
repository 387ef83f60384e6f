import numpy as np


def rgb_to_mask(rgb, colors):
    # we currently return a uint8 array, so the largest value
    # we can map is 255
    if len(colors) > 256:
        raise ValueError("expected len(colors) <= 256")

    h, w = rgb.shape[:2]
    if rgb.ndim != 3:  # channels last
        raise ValueError("expected rgb.ndim == 3")
    # the mask has no channel axis
    return np.zeros((h, w), dtype=np.uint8)
