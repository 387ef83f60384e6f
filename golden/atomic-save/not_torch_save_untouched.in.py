import numpy as np
import torch
import torch_xla.core.xla_model as xm


class Trainer:
    def save(self, path):
        self.accelerator.save(self.model.state_dict(), path)
        xm.save(self.model.state_dict(), path + ".xla")
        np.save(path + ".npy", self.returns)
        self.save_config(path)
        torch.jit.save(torch.jit.script(self.model), path + ".ts")
