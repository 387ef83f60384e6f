# golden-path: test/test_compare_with_autograd.py
"""A test's `pretrained=True` only warns, and the test runs on whatever torchvision the
project's test requirements allow (torch-tb-profiler's `tests_require`: torchvision 0.8,
which has no weight enums; round 34): left alone."""

import torchvision.models as models


def test_resnet50_profile():
    model = models.resnet50(pretrained=True)
    assert model is not None
