# scarches (round 29) saves `model_save_path` and loads `model_path`, both joined with
# "model_params.pt": the module loads the file back, so it is a checkpoint.
import os

import torch


class Model:
    def __init__(self, net, folder):
        self.net = net
        self.folder = folder

    def save(self):
        model_save_path = os.path.join(self.folder, "model_params.pt")
        torch.save(self.net.state_dict(), model_save_path)

    def restore(self):
        model_path = os.path.join(self.folder, "model_params.pt")
        self.net.load_state_dict(torch.load(model_path, weights_only=True))
