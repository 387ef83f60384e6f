import torch

DEFAULT_GAMMA = 0.99


def clipped_surrogate(ratio, advantages, clip_range: float, config):
    assert 0.0 < clip_range < 1.0, f"clip_range must be in (0, 1), got {clip_range}"
    assert config.gamma == DEFAULT_GAMMA, "reward shaping assumes the PPO discount"
    assert ratio.shape == advantages.shape
    assert config.lr_schedule in ("constant", "linear")
    assert config.value_coef is not None, "value_coef is required"
    clipped = torch.clamp(ratio, 1.0 - clip_range, 1.0 + clip_range)
    return -torch.min(ratio * advantages, clipped * advantages).mean()


class RolloutBuffer:
    def __init__(self, buffer_size: int, n_envs: int = 1, gae_lambda: float = 0.95):
        assert buffer_size > 0, "buffer_size must be positive"
        assert 0.0 <= gae_lambda <= 1.0
        self.buffer_size = buffer_size
        self.n_envs = n_envs
        self.gae_lambda = gae_lambda

    def sample(self, batch_size: int):
        assert batch_size <= self.buffer_size * self.n_envs, "batch larger than the buffer"
        return torch.randperm(self.buffer_size * self.n_envs)[:batch_size]
