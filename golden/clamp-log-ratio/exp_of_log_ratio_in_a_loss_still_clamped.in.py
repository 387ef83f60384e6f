# golden-args: --unsafe-fixes
import torch
from torch.distributions import Independent, Normal


def compute_loss(target_output, behaviour_output, action, adv):
    dist_target = Independent(Normal(target_output["mu"], target_output["sigma"]), 1)
    dist_behaviour = Independent(Normal(behaviour_output["mu"], behaviour_output["sigma"]), 1)
    rhos = dist_target.log_prob(action) - dist_behaviour.log_prob(action)
    rhos = torch.exp(rhos)
    return -(rhos * adv).mean()
