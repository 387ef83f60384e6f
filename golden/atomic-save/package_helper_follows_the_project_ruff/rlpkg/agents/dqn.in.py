# Copyright 2026 Example Labs
# SPDX-License-Identifier: Apache-2.0

import torch


class Agent(torch.nn.Module):
    def save(self, path):
        torch.save(self.state_dict(), path)
