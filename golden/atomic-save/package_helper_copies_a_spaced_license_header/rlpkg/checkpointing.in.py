# Copyright (c) Example Corporation.
# SPDX-License-Identifier: Apache-2.0

# Example Team

import torch


def save_checkpoint(model, path):
    torch.save(model.state_dict(), path)


def run_save_checkpoint(model, path):
    save_checkpoint(model, path)
