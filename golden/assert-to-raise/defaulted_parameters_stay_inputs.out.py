from dataclasses import dataclass

import torch

DEFAULT_GAMMA = 0.99
AGGREGATORS = {}


@dataclass
class ShapingConfig:
    gamma: float = DEFAULT_GAMMA
    scale: float = 1.0


def shaped_rewards(rewards, potentials, config=None):
    if config is None:
        config = ShapingConfig()
    if config.gamma != DEFAULT_GAMMA:
        raise ValueError("PBRS gamma must match PPO gamma")
    return rewards + config.scale * (config.gamma * potentials[1:] - potentials[:-1])


def rollout(env, policy, horizon: int | None = None):
    if not horizon:
        horizon = env.max_episode_steps
    if not (horizon > 0):
        raise ValueError(f"horizon must be positive, got {horizon}")
    obs = env.reset()
    for _ in range(horizon):
        obs, reward, done, info = env.step(policy(obs))
        if done:
            break
    return obs


def clip_gradients(parameters, max_norm=None):
    if max_norm is None:
        max_norm = 1.0
    else:
        max_norm = float(max_norm)  # converted: no longer what the caller passed
    assert max_norm > 0, "max_norm must be positive"
    return torch.nn.utils.clip_grad_norm_(parameters, max_norm)


def scale_rewards(rewards, scale=None):
    if scale is None:
        scale = rewards.std()
        scale = scale + 1e-8
    assert scale > 0, "reward scale must be positive"
    return rewards / scale


class Aggregator:
    def __init__(self, model=None):
        self.model = model

    def forward(self, batch, model=None):
        if model is None:
            model = self.model
        assert model is not None
        return model(batch)


def aggregate(name=None):
    if name is None:
        name = new_name()
        assert name not in AGGREGATORS
    else:
        assert name != "default", "the default aggregator cannot be named"
    return AGGREGATORS.setdefault(name, [])
