# golden-args: --unsafe-fixes
from functools import partial

import torch


def save_pretrained(model, save_directory, save_function=torch.save):
    save_function(model.state_dict(), f"{save_directory}/pytorch_model.bin")


def checkpoint_saver(state):
    return partial(torch.save, state)


def save(*args, **kwargs):
    """Save on the main process only."""
    if is_main_process():
        torch.save(*args, **kwargs)
