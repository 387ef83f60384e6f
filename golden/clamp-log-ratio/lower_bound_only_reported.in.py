import torch


def importance_weights(log_probs, behaviour_log_probs):
    log_rho = (log_probs - behaviour_log_probs).clamp(min=-20.0)
    return log_rho.exp()


def ppo_ratio(newlogprob, b_logprobs, mb_inds):
    return torch.exp(torch.clamp(newlogprob - b_logprobs[mb_inds], min=-20.0))


def in_place(logp, logp_old):
    logratio = logp - logp_old
    logratio.clamp_min_(-20.0)
    return logratio.exp()
