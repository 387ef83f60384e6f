# golden-args: --unsafe-fixes
import numpy as np
from torch import save as torch_save


def save_rollouts(rollouts, path):
    np.save(path + ".npy", rollouts["obs"])
    torch_save(rollouts, path + ".pt")
