# golden-args: --unsafe-fixes
import torch
from torch import nn


class Net:
    def __init__(self, module):
        self.module_ = module
        self.optimizer_ = torch.optim.SGD(module.parameters(), lr=0.1)

    def _get_module(self, name):
        module = getattr(self, name)
        if not hasattr(module, "state_dict"):
            raise AttributeError(name)
        return module

    def load_params(self, files):
        # `attr` ranges over modules and optimizers alike: an optimizer's
        # load_state_dict takes no `strict`, so passing it is a TypeError.
        for attr, f_name in files.items():
            module = self._get_module(attr)
            state_dict = torch.load(f_name)
            module.load_state_dict(state_dict)

    def load_all(self, state, names):
        for name in names:
            getattr(self, name).load_state_dict(state[name])


def restore(model: nn.Module, path):
    # A constant attribute name is not picked at run time: the fix is still offered.
    getattr(model, "encoder").load_state_dict(torch.load(path))
