# golden-args: --unsafe-fixes
import torch


def decoupled_ppo_loss(behavior_action_neglog_probs, action_neglog_probs, advantage):
    pg_losses1 = -advantage * torch.exp(
        behavior_action_neglog_probs - action_neglog_probs
    )  # behaviour-policy ratio
    return pg_losses1.mean()


def multiline_operand(new_log_probs, old_log_probs):
    ratio = torch.exp(
        new_log_probs.sum(-1)
        - old_log_probs.sum(-1)  # joint over action dims
    )
    return ratio


def chained(dist, act, logp_old):
    ratio = (
        (dist.log_prob(act) - logp_old)  # per sample
        .exp()
        .float()
    )
    return ratio


def trailing_comma(new_log_probs, old_log_probs):
    return torch.exp(
        new_log_probs
        - old_log_probs,  # per token
    )


def hanging_indent(new_log_probs, old_log_probs):
    return torch.exp(new_log_probs
                     - old_log_probs)
