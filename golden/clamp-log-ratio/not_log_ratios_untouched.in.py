import torch
import torch.nn as nn


class GaussianActor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.mu = nn.Linear(obs_dim, act_dim)
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def forward(self, obs):
        std = torch.exp(self.log_std)
        return torch.distributions.Normal(self.mu(obs), std)


def sac_alpha_loss(log_alpha, log_pi, target_entropy):
    alpha = log_alpha.exp()
    return -(log_alpha.exp() * (log_pi + target_entropy).detach()).mean(), alpha


def probabilities(logits, log_probs, max_log_prob):
    probs = torch.exp(log_probs - log_probs.logsumexp(-1, keepdim=True))
    relative = torch.exp(log_probs - max_log_prob)
    return probs, relative, logits.exp()


def score_function_surrogate(log_probs, costs):
    # DiCE "magic box": exp(x - x.detach()) is 1 with the gradient of x
    magic_box = torch.exp(log_probs - log_probs.detach())
    return (magic_box * costs).sum()


def gaussian_kernel(x, bandwidth):
    return torch.exp(-0.5 * (x / bandwidth) ** 2)


def weight_decay(log_weight_decay):
    return log_weight_decay.exp()


def entropy_ratio(log_prob, ratio):
    # skrl names a log-ratio plain `ratio`: only names that say "log" count
    return torch.exp(ratio) * log_prob
