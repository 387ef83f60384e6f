import pytest
import torch

from audiokit.losses import FeatureMatchingLoss, HingeLoss, MelLoss


def test_feature_matching_needs_matching_lists():
    with pytest.raises(AssertionError):
        FeatureMatchingLoss()([torch.ones(2)], [])
    with pytest.raises(AssertionError):
        FeatureMatchingLoss()([], [])


def test_hinge_needs_two_dimensions():
    loss = HingeLoss()
    with pytest.raises(AssertionError):
        loss(torch.ones(3))


def test_mel_loss():
    assert MelLoss()(torch.ones(2), torch.ones(2)) == 0
