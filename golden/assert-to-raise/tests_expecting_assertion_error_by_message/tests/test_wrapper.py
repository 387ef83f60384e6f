import pytest
from stable_baselines3 import SAC
from experiments import run_experiment

from rlkit.wrapper import ReplayBufferRewardWrapper


def test_wrapper_requires_replay_buffer():
    # SAC builds the buffer: the library calls the wrapper's __init__, out of sight
    with pytest.raises(AssertionError, match=r".*only ReplayBuffer is supported.*"):
        SAC("MlpPolicy", "Pendulum-v1", replay_buffer_class=ReplayBufferRewardWrapper,
            replay_buffer_kwargs={"replay_buffer_class": dict, "reward_fn": None})


def test_gamma_checked_by_the_experiment():
    # an f-string message fits by its literal parts
    with pytest.raises(AssertionError, match=r"gamma must be in \(0, 1\]"):
        run_experiment(gamma=2)


def test_patterns_that_name_no_assert():
    with pytest.raises(AssertionError, match="supported"):  # one word: too vague
        run_experiment(gamma=0.5)
    with pytest.raises(AssertionError, match=".*"):  # fits any message
        run_experiment(gamma=0.5)
    # accepts the ValueError of the rewrite too
    with pytest.raises((AssertionError, ValueError), match="buffer_size must be positive"):
        run_experiment(buffer_size=0)
    with pytest.raises(AssertionError, match="a quarter"):
        run_experiment(gamma=0.5)  # two words only: the assert is rewritten


def test_observation_width_checked_by_the_experiment():
    # the test's values stand where the f-string formats them: "8" for {expected_dim}
    with pytest.raises(AssertionError, match="policy expects 8-dim observations"):
        run_experiment(obs_dim=4)
