# golden-path: tests/models/test_models.py
# tiatoolbox's tests (round 28): they load the project's own weights, trusted, on the
# newest torch CI installs, where weights_only=True is the default. Left alone.
import torch

from pkg.models import UNet


def test_unet_loads_its_weights(tmp_path):
    model = UNet()
    model.load_state_dict(torch.load(tmp_path / "unet.pth"))
