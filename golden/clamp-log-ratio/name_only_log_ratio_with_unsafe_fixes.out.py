# golden-args: --unsafe-fixes
import torch


class ClipPPOLoss:
    def policy_gain(self, log_weight, advantage):
        # log_weight comes from the caller: only its name says it is log(pi / pi_old)
        return log_weight.clamp(-20.0, 20.0).exp() * advantage

    def is_weights(self, batch):
        return torch.exp(batch.log_rho)


def grpo_coef(per_token_logps, old_per_token_logps, mask, level):
    log_ratio = per_token_logps - old_per_token_logps
    if level == "token":
        log_importance_weights = log_ratio
    else:
        log_importance_weights = (log_ratio * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)
        log_importance_weights = log_importance_weights.unsqueeze(-1)
    return torch.exp(log_importance_weights)


def behaviour_weighted_gain(log_weight, log_is_weight, advantage):
    log_behav_weight = log_weight if log_is_weight is None else log_weight + log_is_weight
    return log_behav_weight.clamp(-20.0, 20.0).exp() * advantage


def vllm_is_weights(logps_diff, mask):
    return torch.exp(logps_diff) * mask
