# golden-args: --unsafe-fixes
import torch


def policy_loss(per_token_logps, old_per_token_logps, seq_log_ratio, advantages, per_token: bool, eps: float = 0.2):
    if per_token:
        ratio = torch.exp(
            torch.clamp(per_token_logps - old_per_token_logps, min=-20.0, max=20.0)
        )
    else:
        ratio = torch.exp(torch.clamp(seq_log_ratio, min=-20.0, max=20.0))
    clipped_ratio = torch.clamp(ratio, 1.0 - eps, 1.0 + eps)
    return -torch.min(ratio * advantages, clipped_ratio * advantages).mean()
