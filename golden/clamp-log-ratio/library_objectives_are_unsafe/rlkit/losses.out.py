import torch


def policy_loss(new_log_probs, old_log_probs, advantages, clip=0.2):
    """The PPO clipped surrogate, as published: callers pass the log-probabilities."""
    ratios = torch.exp(new_log_probs - old_log_probs)
    clipped = ratios.clamp(1.0 - clip, 1.0 + clip)
    return -torch.min(ratios * advantages, clipped * advantages).mean()


def _policy_loss(new_log_probs, old_log_probs, advantages):
    ratios = torch.exp(torch.clamp(new_log_probs - old_log_probs, min=-20.0, max=20.0))
    return -(ratios * advantages).mean()


def ppo_update(policy, batch, optimizer):
    log_probs = policy.log_prob(batch.obs, batch.actions)
    ratios = torch.exp(
        torch.clamp(log_probs - batch.old_log_probs, min=-20.0, max=20.0)
    )
    loss = -(ratios * batch.advantages).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
