"""alma-torch (round 53): validators written with asserts, in a distribution that ships no
tests; its repository's tests expect what they raise. Their checks are reported;
an assert of another function is offered as usual (unsafe here, with no tests to read)."""

import torch


def check_input_type(model, data):
    assert isinstance(model, torch.nn.Module), "The model must be a torch.nn.Module"
    assert isinstance(data, torch.Tensor), "The data must be a torch.Tensor"


def scale(x, factor):
    assert factor > 0, "factor must be positive"
    return x * factor
