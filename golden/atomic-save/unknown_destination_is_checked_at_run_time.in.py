# golden-args: --unsafe-fixes
import os

import torch


class Checkpointer:
    """Saves to whatever `f` the caller hands over: a path or an open file."""

    def __init__(self, model):
        self.model = model

    def save(self, f):
        torch.save(self.model.state_dict(), f)

    def save_to(self, args):
        torch.save(self.model.state_dict(), args.output)


def save_state(state, f):
    if isinstance(f, str):
        os.makedirs(os.path.dirname(f), exist_ok=True)
    torch.save(state, f)  # a path or a file object
