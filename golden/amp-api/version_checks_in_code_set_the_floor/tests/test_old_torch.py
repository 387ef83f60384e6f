import torch


def test_runs_everywhere():
    # A test's assert of the version checks the torch it runs on, not the oldest one:
    # it does not set the floor. A test skipped on one release does (see test_skips).
    assert torch.__version__ >= "1.2"
