import torch


def clipped_surrogate(dist, actions, old_logp, advantages, clip_eps=0.2):
    logp = dist.log_prob(actions).sum(-1)
    ratio = torch.exp(torch.clamp(logp - old_logp, min=-20.0, max=20.0))
    clipped = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return -torch.min(ratio * advantages, clipped * advantages).mean()
