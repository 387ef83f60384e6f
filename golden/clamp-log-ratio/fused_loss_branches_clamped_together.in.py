# golden-args: --unsafe-fixes
import torch


def fused_policy_loss(per_token_logps, old_per_token_logps, turn_ids, advantages, level: str,
                      eps: float = 0.2):
    if level == "token":
        token_log_ratio = per_token_logps - old_per_token_logps
        ratio = torch.exp(token_log_ratio)
        clipped_ratio = torch.clamp(ratio, 1.0 - eps, 1.0 + eps)
        return -torch.min(ratio * advantages, clipped_ratio * advantages).mean()
    turn_sum = torch.zeros(int(turn_ids.max()) + 1).index_add(
        0, turn_ids, per_token_logps - old_per_token_logps)
    turn_mean = turn_sum / torch.bincount(turn_ids).clamp(min=1)
    turn_ratio = torch.exp(turn_mean)
    turn_clipped = torch.clamp(turn_ratio, 1.0 - eps, 1.0 + eps)
    return -torch.min(turn_ratio * advantages, turn_clipped * advantages).mean()
