# golden-args: --unsafe-fixes
import logging
from enum import Enum

import torch

log = logging.getLogger(__name__)


class Mode(Enum):
    STATE_DICT = "state_dict"
    OBJECT = "object"


def persist(policy, path, mode: Mode):
    match mode:
        case Mode.STATE_DICT:
            log.info("saving the state dict in %s", path)
            torch.save(policy.state_dict(), path)
        case Mode.OBJECT:
            torch.save(policy, path)
        case _:
            raise NotImplementedError(mode)
