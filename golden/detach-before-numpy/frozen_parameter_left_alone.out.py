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
        scale = self.scale.detach().cpu().numpy()
        return ddi, mask, scale


class HebbianConv2d(nn.Module):
    # biopytorch (round 46): a layer trained by a local rule, its own weight frozen
    def __init__(self, out_channels, in_channels, size):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_channels, in_channels, size, size),
                                   requires_grad=False)

    def convergence(self):
        weights = self.weight.view(self.weight.shape[0], -1)
        norm = torch.sum(torch.abs(weights) ** 3, axis=1)
        return torch.max(torch.abs(norm - torch.ones_like(norm))).cpu().numpy()
