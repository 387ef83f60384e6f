# golden-args: --unsafe-fixes
import torch


def ppo_ratio(new_log_probs, old_log_probs, advantages):
    # the clamped call no longer fits in 88 columns: the clamp gets a line of its own
    ratio = torch.exp(
        torch.clamp(new_log_probs - old_log_probs.detach(), min=-20.0, max=20.0)
    )
    return -(advantages * ratio).mean()


def arguments_on_their_own_line(old_action_neglog_probs_batch, action_neglog_probs):
    ratio = torch.exp(
        torch.clamp(
            old_action_neglog_probs_batch - action_neglog_probs, min=-20.0, max=20.0
        )
    )
    return ratio


def one_argument_a_line(batch, actions_log_prob):
    ratio = torch.exp(
        torch.clamp(
            actions_log_prob - torch.squeeze(batch.old_actions_log_prob),
            min=-20.0,
            max=20.0,
        )
    )
    return ratio


def inside_a_longer_expression(advantages, new_log_prob, log_prob):
    # only the exp call is laid out again: the code around it is the author's
    return (advantages * torch.exp(
        torch.clamp(new_log_prob - log_prob.detach(), min=-20.0, max=20.0)
    )).mean()  # per sample


def already_exploded(behavior_action_neglog_probs, action_neglog_probs, advantage):
    pg_losses1 = -advantage * torch.exp(
        torch.clamp(
            behavior_action_neglog_probs - action_neglog_probs, min=-20.0, max=20.0
        )
    )  # behaviour-policy ratio
    return pg_losses1.mean()


def method_chains(dist, minibatch, new_logprob, b_logprobs, minibatch_ind):
    for _ in range(2):
        if minibatch is not None:
            ratio = (
                (new_logprob - b_logprobs[minibatch_ind].flatten())
                .clamp(-20.0, 20.0)
                .exp()
            )
            ratios = (
                (dist.log_prob(minibatch.act) - minibatch.logp_old)
                .clamp(-20.0, 20.0)
                .exp()
                .float()
            )
    return ratio, ratios


def chain_in_parentheses_of_its_own(new_dist, minibatch):
    for _ in range(2):
        new_dratio = (
            (new_dist.log_prob(minibatch.act) - minibatch.logp_old)
            .clamp(-20.0, 20.0)
            .exp()
            .float()
        )
    return new_dratio


def pragma_comment_stays_on_its_line(batch, actions_log_prob):
    # mypy reads `# type: ignore` on its own line only: black keeps such a line whole too
    ratio = torch.exp(torch.clamp(actions_log_prob - torch.squeeze(batch.old_actions_log_prob), min=-20.0, max=20.0))  # type: ignore
    return ratio


def short_lines_stay_on_one_line(new_log_probs, old_log_probs):
    a = torch.exp(torch.clamp(new_log_probs - old_log_probs, min=-20.0, max=20.0))
    b = (new_log_probs - old_log_probs).clamp(-20.0, 20.0).exp()
    return a, b
