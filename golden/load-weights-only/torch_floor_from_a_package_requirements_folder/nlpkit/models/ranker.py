"""A component whose torch requirement lives in the package's own requirements folder
(deeppavlov's `deeppavlov/requirements/pytorch.txt`, round 33): torch 1.6 has no
`weights_only`."""

import torch
from torch import nn


class Ranker(nn.Module):
    def load(self, weights_path):
        checkpoint = torch.load(weights_path, map_location="cpu")
        self.load_state_dict(checkpoint["model_state_dict"])
