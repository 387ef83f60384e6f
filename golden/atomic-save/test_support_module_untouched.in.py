# golden-path: tests/unit/checkpoint_fixtures.py
import pytest
import torch


@pytest.fixture
def saved_checkpoint(tmp_path_factory):
    path = tmp_path_factory.mktemp("ckpt") / "model.pt"
    torch.save({"step": 3}, path)
    return path
