import os

import torch


class Writer:
    def __init__(self, savefun=torch.save):
        self._savefun = savefun  # stored: who knows what it is given

    def save(self, target, out_dir, filename, savefun=torch.save):
        tmp = os.path.join(out_dir, "tmp" + filename)
        with open(tmp, "wb") as f:
            savefun(target, f)  # an open file of a temporary it renames itself
        os.replace(tmp, os.path.join(out_dir, filename))


def export(model, save_directory, save_function=torch.save):
    save_function(model.state_dict(), f"{save_directory}/pytorch_model.bin")
