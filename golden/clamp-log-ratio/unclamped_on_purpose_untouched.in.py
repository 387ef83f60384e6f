# golden-args: --unsafe-fixes
import torch


def grpo_loss(per_token_logps, old_per_token_logps, advantages, epsilon: float = 0.2):
    # The ratio stays un-clamped, mirroring the reference implementation's loss exactly.
    coef_1 = torch.exp(per_token_logps - old_per_token_logps)
    coef_2 = torch.clamp(coef_1, 1 - epsilon, 1 + epsilon)
    per_token_loss = -torch.min(coef_1 * advantages, coef_2 * advantages)
    return per_token_loss.mean()


def ppo_loss(new_log_probs, old_log_probs, advantages, epsilon: float = 0.2):
    ratio = torch.exp(new_log_probs - old_log_probs)
    clipped = torch.clamp(ratio, 1 - epsilon, 1 + epsilon)
    return -torch.min(ratio * advantages, clipped * advantages).mean()
