# golden-args: --unsafe-fixes
import torch


def vtrace(log_pi, log_mu, rho_thresh=1.0, c_thresh=1.0):
    rho = (log_pi - log_mu).exp()
    clipped_rho = rho.clamp_max(rho_thresh)
    clipped_c = torch.clamp(rho, max=c_thresh)
    return clipped_rho, clipped_c


def truncated_weights(new_log_prob, old_log_prob, bound):
    weights = torch.exp(new_log_prob - old_log_prob)
    weights = weights.clamp(min=0.0, max=bound)
    return weights


def clipped_and_raw(new_log_probs, old_log_probs, rho_thresh=1.0):
    rho = (new_log_probs - old_log_probs).clamp(-20.0, 20.0).exp()
    clipped_rho = rho.clamp_max(rho_thresh)
    return clipped_rho, rho.mean()


def clamped_from_below_only(new_log_probs, old_log_probs):
    ratio = (new_log_probs - old_log_probs).clamp(-20.0, 20.0).exp()
    return ratio.clamp(min=0.1)
