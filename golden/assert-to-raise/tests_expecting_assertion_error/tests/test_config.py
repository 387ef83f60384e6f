import pytest

from rlcfg.config import PPOConfig


def test_gamma_must_be_a_discount():
    with pytest.raises(AssertionError, match="gamma must be in"):
        PPOConfig(gamma=1.5)


def test_defaults():
    config = PPOConfig()
    assert config.gamma == 0.99
