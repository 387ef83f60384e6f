import logging

import torch

log = logging.getLogger("trainer")


def compile_if_possible(model):
    try:
        model = torch.compile(model)
    except BaseException:
        pass
    return model
