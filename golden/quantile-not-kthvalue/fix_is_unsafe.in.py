import torch as th


def robust_max(values):
    return values.kthvalue(int(0.99 * len(values))).values


def clipping_threshold(norms, clip_percentile):
    # pytorch-dp (round 46): `max(1, ...)` keeps k at least 1, so kthvalue never raises
    return norms.kthvalue(max(1, int(clip_percentile * len(norms)))).values
