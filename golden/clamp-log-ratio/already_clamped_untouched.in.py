import torch


def spellings(new_log_probs, old_log_probs, log_ratio):
    a = torch.exp(torch.clamp(new_log_probs - old_log_probs, min=-20.0, max=20.0))
    b = torch.exp(torch.clamp(new_log_probs - old_log_probs, -10, 10))
    c = torch.exp(torch.clip(log_ratio, -20, 20))
    d = (new_log_probs - old_log_probs).clamp(-20.0, 20.0).exp()
    e = (new_log_probs - old_log_probs).clip(max=20.0).exp()
    f = log_ratio.clamp_max(20.0).exp()
    g = torch.clamp_max(log_ratio, 20.0).exp()
    return a, b, c, d, e, f, g


def clamped_in_an_earlier_assignment(per_head_log_probs, old_log_probs):
    ratios = {}
    for key in per_head_log_probs:
        log_ratio = per_head_log_probs[key] - old_log_probs[key]
        log_ratio_clamped = torch.clamp(log_ratio, min=-20.0, max=20.0)
        ratios[key] = torch.exp(log_ratio_clamped)
    return ratios


def reassigned_clamped(logp, logp_old):
    logratio = logp - logp_old
    logratio = logratio.clamp(-20, 20)
    return logratio.exp()


def clamped_in_place(logp, logp_old):
    logratio = logp - logp_old
    logratio.clamp_(-20, 20)
    return logratio.exp()


def clamped_in_one_branch(logp, logp_old, clip):
    logratio = logp - logp_old
    if clip:
        logratio = logratio.clamp(-clip, clip)
    return torch.exp(logratio)


def clip_bounds_from_config(log_weight, clip_bounds):
    log_weight_clip = log_weight.clamp(*clip_bounds)
    return log_weight_clip.exp()


def geometric_mean_of_clipped(log_ratio, mask, eps):
    clipped_log_ratio = torch.clamp(log_ratio, min=-eps, max=eps)
    log_importance_weights = (clipped_log_ratio * mask).sum(-1) / mask.sum(-1)
    return torch.exp(log_importance_weights)


def exp_result_bounded(log_probs, log_probs_old, max_weight):
    w = (log_probs.float() - log_probs_old.float()).exp().clamp(max=max_weight).detach()
    rho = torch.clamp(torch.exp(log_probs - log_probs_old), 0.0, max_weight)
    return w, rho
