import torch


def guard_ratio_explosion(logp, logp_old, limit):
    # checks must keep seeing the real ratio, or they can no longer fire
    if torch.exp(logp - logp_old).max() > limit:
        raise RuntimeError("policy moved too far")
    if not torch.isfinite(torch.exp(logp - logp_old)).all():
        raise RuntimeError("non-finite importance ratio")
    assert (logp - logp_old).exp().mean() < limit, "ratio explosion"


def truncated_is_mask(per_token_logps, sampling_per_token_logps, threshold):
    return torch.exp(per_token_logps - sampling_per_token_logps) <= threshold
