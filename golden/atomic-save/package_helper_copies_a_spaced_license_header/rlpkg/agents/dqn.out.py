# Copyright (c) Example Corporation.
# SPDX-License-Identifier: Apache-2.0

# Example Team

import torch

from rlpkg._torchfix_atomic_save import atomic_save


class Agent(torch.nn.Module):
    def save(self, path):
        atomic_save(self.state_dict(), path)
