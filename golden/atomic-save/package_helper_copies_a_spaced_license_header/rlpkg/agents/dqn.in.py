# Copyright (c) Example Corporation.
# SPDX-License-Identifier: Apache-2.0

# Example Team

import torch


class Agent(torch.nn.Module):
    def save(self, path):
        torch.save(self.state_dict(), path)
