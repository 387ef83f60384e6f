import torch
import torch.cuda.amp as amp_module
from torch.cuda.amp import amp_definitely_not_available
from torch.cuda.amp.grad_scaler import OptState


def amp_available():
    return not amp_definitely_not_available() and torch.cuda.amp is amp_module


def skipped(scaler, optimizer):
    return scaler._per_optimizer_states[id(optimizer)]["stage"] is OptState.STEPPED
