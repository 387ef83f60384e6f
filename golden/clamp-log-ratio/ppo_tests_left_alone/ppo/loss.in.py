import torch


def clipped_surrogate(dist, actions, old_logp, advantages, clip_eps=0.2):
    logp = dist.log_prob(actions).sum(-1)
    ratio = torch.exp(logp - old_logp)
    clipped = torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps)
    return -torch.min(ratio * advantages, clipped * advantages).mean()
