"""A parameter made with `requires_grad=False` never requires grad: its `.numpy()` cannot
raise (pyhealth's SafeDrug layer, round 35). One that trains is still detached."""

import numpy as np
import torch
from torch import nn


class SafeDrugLayer(nn.Module):
    def __init__(self, ddi_adj, mask_H, size):
        super().__init__()
        self.ddi_adj = nn.Parameter(ddi_adj, requires_grad=False)
        self.mask_H = nn.Parameter(mask_H, False)
        self.scale = nn.Parameter(torch.ones(size))

    def forward(self, y_prob):
        ddi = np.sum(self.ddi_adj.cpu().numpy())
        mask = self.mask_H.cpu().numpy()
        scale = self.scale.cpu().numpy()
        return ddi, mask, scale
