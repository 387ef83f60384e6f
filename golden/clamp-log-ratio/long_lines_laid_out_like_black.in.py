# golden-args: --unsafe-fixes
import torch


def ppo_ratio(new_log_probs, old_log_probs, advantages):
    # the clamped call no longer fits in 88 columns: the clamp gets a line of its own
    ratio = torch.exp(new_log_probs - old_log_probs.detach())
    return -(advantages * ratio).mean()


def arguments_on_their_own_line(old_action_neglog_probs_batch, action_neglog_probs):
    ratio = torch.exp(old_action_neglog_probs_batch - action_neglog_probs)
    return ratio


def one_argument_a_line(batch, actions_log_prob):
    ratio = torch.exp(actions_log_prob - torch.squeeze(batch.old_actions_log_prob))
    return ratio


def inside_a_longer_expression(advantages, new_log_prob, log_prob):
    # only the exp call is laid out again: the code around it is the author's
    return (advantages * torch.exp(new_log_prob - log_prob.detach())).mean()  # per sample


def already_exploded(behavior_action_neglog_probs, action_neglog_probs, advantage):
    pg_losses1 = -advantage * torch.exp(
        behavior_action_neglog_probs - action_neglog_probs
    )  # behaviour-policy ratio
    return pg_losses1.mean()


def method_chains(dist, minibatch, new_logprob, b_logprobs, minibatch_ind):
    for _ in range(2):
        if minibatch is not None:
            ratio = (new_logprob - b_logprobs[minibatch_ind].flatten()).exp()
            ratios = (dist.log_prob(minibatch.act) - minibatch.logp_old).exp().float()
    return ratio, ratios


def chain_in_parentheses_of_its_own(new_dist, minibatch):
    for _ in range(2):
        new_dratio = (
            (new_dist.log_prob(minibatch.act) - minibatch.logp_old).exp().float()
        )
    return new_dratio


def pragma_comment_stays_on_its_line(batch, actions_log_prob):
    # mypy reads `# type: ignore` on its own line only: black keeps such a line whole too
    ratio = torch.exp(actions_log_prob - torch.squeeze(batch.old_actions_log_prob))  # type: ignore
    return ratio


def short_lines_stay_on_one_line(new_log_probs, old_log_probs):
    a = torch.exp(new_log_probs - old_log_probs)
    b = (new_log_probs - old_log_probs).exp()
    return a, b
