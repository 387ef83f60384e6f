def gae(rewards, values, dones, gamma, lam):
    if not (
        rewards is None or isinstance(rewards, list)
    ):  # one reward per step, never a tensor: the collate function stacks them later
        raise TypeError("expected rewards is None or isinstance(rewards, list)")
    if not isinstance(values, list):  # bootstrapped
        raise TypeError("expected isinstance(values, list)")
    # GAE needs one more value than rewards (the bootstrap value).
    if len(values) != len(rewards) + 1:  # bootstrap
        raise ValueError("expected len(values) == len(rewards) + 1")
    if (
        # an episode boundary mask, not a done flag per env
        dones.shape != rewards.shape
    ):
        raise ValueError("dones must align with rewards")
    if not (0.0 < gamma <= 1.0):  # type: ignore[operator]
        raise ValueError("expected 0.0 < gamma <= 1.0")

    # Discount and trace decay.
    if not (0.0 <= lam <= 1.0):
        raise ValueError("expected 0.0 <= lam <= 1.0")
    advantages = []
    last = 0.0
    for t in reversed(range(len(rewards))):
        delta = rewards[t] + gamma * values[t + 1] * (1 - dones[t]) - values[t]
        last = delta + gamma * lam * (1 - dones[t]) * last
        advantages.append(last)
    return advantages[::-1]
