# golden-args: --unsafe-fixes
#!/usr/bin/env python
"""Train a PPO agent and keep the latest checkpoint."""

from __future__ import annotations

import logging
import os

import torch

try:
    import wandb
except ImportError:  # optional
    wandb = None

logger = logging.getLogger(__name__)

# Checkpoints older than this many updates are pruned.
KEEP_LAST = 3


def save(agent, run_dir, update):
    path = os.path.join(run_dir, f"agent_{update}.pt")
    torch.save(agent.state_dict(), path)
    logger.info("saved %s", path)
