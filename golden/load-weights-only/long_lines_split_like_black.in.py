import torch


def test_load(model, tmp_path):
    model.load_state_dict(torch.load(tmp_path / "wd_model.pt", map_location="cpu"))


def test_short(model, path):
    model.load_state_dict(torch.load(path))
