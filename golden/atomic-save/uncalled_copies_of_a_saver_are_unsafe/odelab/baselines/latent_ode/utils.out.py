# Copied from the Latent ODE code: nothing in the project calls the first two savers;
# the third is exported.
import os

import torch

from odelab._torchfix_atomic_save import atomic_save


def save_checkpoint_file(state, save, epoch):
    if not os.path.exists(save):
        os.makedirs(save)
    filename = os.path.join(save, "checkpt-%04d.pth" % epoch)
    torch.save(state, filename)


def save_best(state, folder):
    torch.save(state, os.path.join(folder, "best_checkpoint.pth"))


__all__ = ["save_resume_state"]


def save_resume_state(state, folder):
    atomic_save(state, os.path.join(folder, "resume_checkpoint.pth"))
