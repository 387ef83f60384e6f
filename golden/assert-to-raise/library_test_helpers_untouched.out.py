import torch


def discounted_returns(rewards, gamma):
    if not (0.0 < gamma <= 1.0):
        raise ValueError("expected 0.0 < gamma <= 1.0")
    returns = torch.zeros_like(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        returns[t] = running
    return returns


def assert_close(actual, expected, atol=1e-6):
    assert torch.allclose(actual, expected, atol=atol), f"{actual} != {expected}"


def _assert_finite(values):
    assert torch.isfinite(values).all()


def test_discounted_returns():
    returns = discounted_returns(torch.ones(3), 0.5)
    assert returns[0] == 1.75


class TestReturns:
    def check_shape(self, rewards):
        assert rewards.dim() == 1
