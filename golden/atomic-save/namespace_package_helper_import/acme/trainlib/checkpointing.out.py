"""Checkpoints for the trainer: the latest one and the best one (no import of its own
package: the package's __init__.py shows the name it is imported by)."""

import logging
import os

from acme.trainlib._torchfix_atomic_save import atomic_save

logger = logging.getLogger(__name__)


def save_checkpoint(model, optimizer, step, config):
    path = os.path.join(config.output_dir, "last.pt")
    atomic_save(
        {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step},
        path,
    )
    logger.info("saved %s", path)


def save_best(model, config):
    atomic_save(model.state_dict(), os.path.join(config.output_dir, "best.pt"))


def run_save_checkpoint(model, optimizer, step, config):
    save_checkpoint(model, optimizer, step, config)


def run_save_best(model, config):
    save_best(model, config)
