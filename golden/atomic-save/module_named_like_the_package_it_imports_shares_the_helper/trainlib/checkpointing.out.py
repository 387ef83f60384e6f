"""Checkpoints for the trainer: the latest one and the best one."""

import logging
import os

from trainlib._torchfix_atomic_save import atomic_save
from trainlib.config import RunConfig

logger = logging.getLogger(__name__)


def save_checkpoint(model, optimizer, step, config: RunConfig):
    path = os.path.join(config.output_dir, "last.pt")
    atomic_save(
        {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step},
        path,
    )
    logger.info("saved %s", path)


def save_best(model, config: RunConfig):
    atomic_save(model.state_dict(), os.path.join(config.output_dir, "best.pt"))


def run_save_checkpoint(model, optimizer, step, config):
    save_checkpoint(model, optimizer, step, config)


def run_save_best(model, config):
    save_best(model, config)
