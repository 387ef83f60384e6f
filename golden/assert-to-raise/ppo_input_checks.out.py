import torch

DEFAULT_GAMMA = 0.99


def clipped_surrogate(ratio, advantages, clip_range: float, config):
    if not (0.0 < clip_range < 1.0):
        raise ValueError(f"clip_range must be in (0, 1), got {clip_range}")
    if config.gamma != DEFAULT_GAMMA:
        raise ValueError("reward shaping assumes the PPO discount")
    if ratio.shape != advantages.shape:
        raise ValueError("expected ratio.shape == advantages.shape")
    if config.lr_schedule not in ("constant", "linear"):
        raise ValueError('expected config.lr_schedule in ("constant", "linear")')
    if config.value_coef is None:
        raise ValueError("value_coef is required")
    clipped = torch.clamp(ratio, 1.0 - clip_range, 1.0 + clip_range)
    return -torch.min(ratio * advantages, clipped * advantages).mean()


class RolloutBuffer:
    def __init__(self, buffer_size: int, n_envs: int = 1, gae_lambda: float = 0.95):
        if buffer_size <= 0:
            raise ValueError("buffer_size must be positive")
        if not (0.0 <= gae_lambda <= 1.0):
            raise ValueError("expected 0.0 <= gae_lambda <= 1.0")
        self.buffer_size = buffer_size
        self.n_envs = n_envs
        self.gae_lambda = gae_lambda

    def sample(self, batch_size: int):
        if not (batch_size <= self.buffer_size * self.n_envs):
            raise ValueError("batch larger than the buffer")
        return torch.randperm(self.buffer_size * self.n_envs)[:batch_size]
