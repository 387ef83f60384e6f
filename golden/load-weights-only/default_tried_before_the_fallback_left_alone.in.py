# golden-args: --unsafe-fixes
"""The default load is tried first on purpose and `weights_only=False` only when it
fails (lightning-pose, round 35): writing either value into the first call defeats the
fallback."""

import logging

import torch

logger = logging.getLogger(__name__)


def load_model(model, ckpt_file):
    try:
        checkpoint = torch.load(ckpt_file)
    except Exception as error:
        logger.warning("failed to load checkpoint with default settings: %s", error)
        checkpoint = torch.load(ckpt_file, weights_only=False)
    model.load_state_dict(checkpoint.get("state_dict", checkpoint))
    return model
