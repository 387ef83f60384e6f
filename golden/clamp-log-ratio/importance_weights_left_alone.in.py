# golden-args: --unsafe-fixes
import torch


class SMCABC:
    def resample(self, particles, log_weights, num_samples):
        weights = torch.exp(log_weights)
        index = torch.multinomial(weights, num_samples, replacement=True)
        return particles[index], log_weights.exp()

    def kde(self, all_log_weights):
        return torch.distributions.Categorical(probs=torch.exp(all_log_weights[-1]))


class RenyiBound:
    def get_importance_weight(self, elbo_particles, alpha, n):
        logweights = (1 - alpha) * elbo_particles
        mean_log_weights = torch.logsumexp(logweights, 0) - torch.log(torch.tensor(n))
        normed_logweights = logweights - mean_log_weights
        return normed_logweights.exp(), mean_log_weights

    def loss(self, elbo_particles):
        _, mean_log_weights = self.get_importance_weight(elbo_particles, 0.5, 8)
        surrogate_loss = -torch.exp(mean_log_weights)
        return surrogate_loss


def self_normalised(target, proposal, x, f):
    weights = torch.exp(target.log_prob(x) - proposal.log_prob(x))
    w = torch.exp(target.log_prob(x) - proposal.log_prob(x))
    w = w / w.sum()
    return (weights * f(x)).mean(), (w * f(x)).sum()


def grpo_loss(per_token_logps, old_per_token_logps, advantages, eps):
    log_importance_weights = per_token_logps - old_per_token_logps.detach()
    log_importance_weights = log_importance_weights.sum(-1, keepdim=True)
    coef_1 = torch.exp(log_importance_weights)
    coef_2 = torch.clamp(coef_1, 1 - eps, 1 + eps)
    return -torch.min(coef_1 * advantages, coef_2 * advantages).mean()


def clipped_objective(log_ratio, gain, clip):
    ratio = log_ratio.exp()
    return torch.min(ratio * gain, ratio.clamp(1.0 - clip, 1.0 + clip) * gain).mean()


def ppo_ratio(log_prob, old_log_prob):
    ratio = torch.exp(log_prob - old_log_prob)
    return ratio
