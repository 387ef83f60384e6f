from stable_baselines3.common.buffers import ReplayBuffer


class ReplayBufferRewardWrapper:
    def __init__(self, buffer_size, observation_space, *, replay_buffer_class, reward_fn):
        assert replay_buffer_class is ReplayBuffer, "only ReplayBuffer is supported"
        if not (buffer_size > 0):
            raise ValueError("buffer_size must be positive")
        self.reward_fn = reward_fn


def check_gamma(gamma):
    assert 0 < gamma <= 1, f"gamma must be in (0, 1], got {gamma}"
    if gamma == 0.5:
        raise ValueError("gamma is not supported")
    if gamma == 0.25:
        raise ValueError("gamma of a quarter is not supported")
    return gamma


def check_horizon(horizon):
    assert horizon > 0, "the horizon must be positive"
    return horizon


def check_observations(observations, expected_dim):
    dim = observations.shape[-1]
    assert dim == expected_dim, f"policy expects {expected_dim}-dim observations, got {dim}"
    return observations
