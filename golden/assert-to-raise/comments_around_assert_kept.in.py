def gae(rewards, values, dones, gamma, lam):
    assert rewards is None or isinstance(
        rewards, list
    )  # one reward per step, never a tensor: the collate function stacks them later
    assert isinstance(
        values, list
    )  # bootstrapped
    # GAE needs one more value than rewards (the bootstrap value).
    assert len(values) == len(rewards) + 1  # bootstrap
    assert (
        # an episode boundary mask, not a done flag per env
        dones.shape == rewards.shape
    ), "dones must align with rewards"
    assert 0.0 < gamma <= 1.0  # type: ignore[operator]

    # Discount and trace decay.
    assert 0.0 <= lam <= 1.0
    advantages = []
    last = 0.0
    for t in reversed(range(len(rewards))):
        delta = rewards[t] + gamma * values[t + 1] * (1 - dones[t]) - values[t]
        last = delta + gamma * lam * (1 - dones[t]) * last
        advantages.append(last)
    return advantages[::-1]
