# golden-args: --unsafe-fixes
# mindtorch (round 56), a torch API on MindSpore, tests its functions against torch's:
# the torch call beside its twin (`tw_torch.range`, `k1.ger`) is the reference and stays.
import numpy as np
import torch

import twin.torch as tw_torch


def test_range():
    ours = tw_torch.range(1, 10, 2)
    theirs = torch.range(1, 10, 2)
    assert np.allclose(ours.numpy(), theirs.numpy())


def test_ger():
    v1 = torch.arange(1.0, 5.0)
    v2 = torch.arange(1.0, 4.0)
    theirs = torch.ger(v1, v2)
    k1 = tw_torch.tensor(v1.numpy())
    ours = k1.ger(tw_torch.tensor(v2.numpy()))
    assert np.allclose(ours.numpy(), theirs.numpy())


def test_ger_of_torch_alone():
    v1 = torch.arange(1.0, 5.0)
    v2 = torch.arange(1.0, 4.0)
    assert torch.outer(v1, v2).shape == v1.ger(v2).shape == (4, 3)
