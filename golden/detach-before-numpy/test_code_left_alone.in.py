# golden-path: tests/test_value_head.py
import torch
from torch import nn


def test_value_head_shape():
    head = nn.Linear(4, 1)
    assert head(torch.randn(2, 4)).cpu().numpy().shape == (2, 1)
