import pytest
import torch


def check_loss(loss, bound):
    assert loss.dim() == 0
    assert bound > 0
    if loss.item() > bound:
        pytest.fail(f"loss {loss.item()} above {bound}")
