# golden-args: --unsafe-fixes
import os
import time
import torch
from collections import OrderedDict

from basicsr.utils import get_root_logger


def save_training_state(state, path):
    for retry in range(3):
        torch.save(state, path)
