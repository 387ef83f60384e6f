import torch


def test_save(tmp_path):
    # Tests are left alone and do not count either.
    torch.save({"x": torch.ones(1)}, "agent.pt")
