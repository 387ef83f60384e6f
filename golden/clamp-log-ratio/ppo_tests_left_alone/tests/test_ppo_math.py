import torch

from ppo.loss import clipped_surrogate


def test_ratio_of_joint_probabilities_is_the_product_of_ratios():
    logp = torch.randn(8, 3)
    old_logp = torch.randn(8, 3)
    joint = torch.exp(logp.sum(-1) - old_logp.sum(-1))
    per_dim = torch.exp(logp - old_logp).prod(-1)
    assert torch.allclose(joint, per_dim)


def test_extreme_ratios_are_exact(huge=60.0):
    logp = torch.full((4,), huge)
    old_logp = torch.zeros(4)
    # exp(60) is finite in float32: the test checks the unclamped identity on purpose
    assert torch.equal(torch.exp(logp - old_logp), torch.full((4,), huge).exp())


def test_loss_is_finite():
    dist = torch.distributions.Normal(torch.zeros(4, 2), torch.ones(4, 2))
    actions = dist.sample()
    old_logp = dist.log_prob(actions).sum(-1)
    assert torch.isfinite(clipped_surrogate(dist, actions, old_logp, torch.ones(4)))
