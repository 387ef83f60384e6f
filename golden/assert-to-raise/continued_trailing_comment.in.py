import numpy as np


def rgb_to_mask(rgb, colors):
    assert len(colors) <= 256  # we currently return a uint8 array, so the largest value
    # we can map is 255

    h, w = rgb.shape[:2]
    assert rgb.ndim == 3  # channels last
    # the mask has no channel axis
    return np.zeros((h, w), dtype=np.uint8)
