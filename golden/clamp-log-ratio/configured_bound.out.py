# golden-args: --unsafe-fixes
import torch


def ppo_ratio(dist, actions, old_log_probs):
    # half-precision rollouts: a tighter bound keeps the ratio finite in float16
    new_log_probs = dist.log_prob(actions)
    return torch.exp(torch.clamp(new_log_probs - old_log_probs, min=-10.0, max=10.0))
