# golden-args: --unsafe-fixes
import torch


def surrogate(dist, minibatch, per_head_log_probs, old_log_probs, advantages):
    # tianshou
    ratios = (dist.log_prob(minibatch.act) - minibatch.logp_old).exp().float()
    # one ratio per action head
    head_ratios = {}
    for key in per_head_log_probs:
        head_ratios[key] = torch.exp(per_head_log_probs[key] - old_log_probs[key])
    return ratios, head_ratios


def rsl_rl_surrogate(batch, actions_log_prob, clip_param):
    ratio = torch.exp(actions_log_prob - torch.squeeze(batch.old_actions_log_prob))
    surrogate = -torch.squeeze(batch.advantages) * ratio
    surrogate_clipped = -torch.squeeze(batch.advantages) * torch.clamp(
        ratio, 1.0 - clip_param, 1.0 + clip_param
    )
    return torch.max(surrogate, surrogate_clipped).mean()


def rl_games_actor_loss(old_action_neglog_probs_batch, action_neglog_probs, advantage):
    # exp(old neglogp - new neglogp) is pi_new / pi_old
    ratio = torch.exp(old_action_neglog_probs_batch - action_neglog_probs)
    return -(advantage * ratio).mean()


def trpo_gain(policy, states, actions, log_prob, advantages):
    new_log_prob = policy.log_prob(states, actions)
    return (advantages * torch.exp(new_log_prob - log_prob.detach())).mean()


def joint_ratio(new_dist, actions, b_logp):
    # summed over action dimensions: the ratio of joint probabilities
    return (new_dist.log_prob(actions).sum(-1) - b_logp.sum(-1)).exp()


def vtrace_rho(log_pi, log_mu):
    return (log_pi - log_mu).exp()
