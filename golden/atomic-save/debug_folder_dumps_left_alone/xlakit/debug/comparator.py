import os

import torch

_SAVE_DIR = None
_STEP = None
_TENSOR_IDS = {}


def configure(save_dir):
    global _SAVE_DIR
    _SAVE_DIR = save_dir


def save(name, tensor, step=None):
    # torch-xla's model comparator (round 46): one file per tensor, to compare two runs;
    # a crashed debugging run is simply run again
    global _STEP, _TENSOR_IDS
    if _SAVE_DIR is not None:
        tensor_data = tensor.cpu()
        if step is not None:
            path = os.path.join(_SAVE_DIR, "step-{}".format(step))
            if not os.path.isdir(path):
                os.mkdir(path)
            if step != _STEP:
                _STEP = step
                _TENSOR_IDS = {}
        else:
            path = _SAVE_DIR
        index = _TENSOR_IDS.get(name, 0)
        _TENSOR_IDS[name] = index + 1
        path = os.path.join(path, "{}.{}".format(name, index))
        torch.save(tensor_data, path)
    return tensor
