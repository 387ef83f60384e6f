import math

import torch


def sample_aspect_ratios(batch_size, ratio_range):
    # a log aspect ratio, in a file with no log-probabilities anywhere
    low, high = math.log(ratio_range[0]), math.log(ratio_range[1])
    log_ratio = torch.empty(batch_size).uniform_(low, high)
    aspect_ratio = torch.exp(log_ratio)
    return aspect_ratio
