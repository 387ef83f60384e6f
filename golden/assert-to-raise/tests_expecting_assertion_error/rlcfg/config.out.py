"""Settings of the PPO trainer, checked when they are made."""

DEFAULT_GAMMA = 0.99


class PPOConfig:
    def __init__(self, gamma=DEFAULT_GAMMA, clip_range=0.2, n_envs=8):
        assert 0.0 < gamma <= 1.0, f"gamma must be in (0, 1], got {gamma}"
        if not (0.0 < clip_range < 1.0):
            raise ValueError(f"clip_range must be in (0, 1), got {clip_range}")
        self.gamma = gamma
        self.clip_range = clip_range
        self.n_envs = n_envs


def linear_schedule(start, end, steps):
    assert steps > 0, "steps must be positive"
    assert end <= start, f"a decaying schedule needs end <= start, got {start} -> {end}"
    return [start + (end - start) * i / steps for i in range(steps + 1)]


def rollout_length(n_steps, n_envs):
    assert n_steps % n_envs == 0, "n_steps must be a multiple of n_envs"
    return n_steps // n_envs
