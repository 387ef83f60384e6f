import torch


def clipping_threshold(norms, clip_percentile):
    # the project installs torch 1.5, which has no torch.quantile (came with 1.7)
    return norms.kthvalue(int(clip_percentile * norms.numel())).values
