# yqn-pytorch-framework (round 47): the function's own default names one file, but its only
# caller passes a new name per step (`"checkpoint_%d.pth" % step`). Each save is a new file
# and a crash tears only the newest, as when the function formats the counter itself: an
# unsafe fix (its reviewer called the safe rewrite noise). `save_latest_checkpoint` is also
# called with its default, a file overwritten each time: a safe fix.
import os

import torch


def save_checkpoint(state, directory, filename="checkpoint.pth"):
    torch.save(state, os.path.join(directory, filename))


def save_latest_checkpoint(state, directory, filename="latest.pth"):
    torch.save(state, os.path.join(directory, filename))


def train(model, optimizer, steps, directory):
    for step in range(steps):
        optimizer.step()
        state = {"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}
        save_checkpoint(state, directory, filename="checkpoint_%d.pth" % step)
        save_latest_checkpoint(state, directory, f"latest_{step}.pth")
        save_latest_checkpoint(state, directory)
