# golden-args: --unsafe-fixes
import torch as th
from torch.nn import functional as F


def train_step(policy, rollout_data, clip_range):
    values, log_prob, entropy = policy.evaluate_actions(rollout_data.observations, rollout_data.actions)
    advantages = rollout_data.advantages
    # ratio between old and new policy, should be one at the first iteration
    ratio = th.exp(log_prob - rollout_data.old_log_prob)
    policy_loss_1 = advantages * ratio
    policy_loss_2 = advantages * th.clamp(ratio, 1 - clip_range, 1 + clip_range)
    policy_loss = -th.min(policy_loss_1, policy_loss_2).mean()
    value_loss = F.mse_loss(rollout_data.returns, values.flatten())
    return policy_loss + 0.5 * value_loss
