# torchutils (round 56) imports the standard library under private names (`import os as
# _os`): the helper's bare `import os` beside it fails its isort check and its convention.
import os as _os

import torch as _torch


def save_checkpoint(model, folder):
    path = _os.path.join(folder, "checkpoint.pt")
    _torch.save(model.state_dict(), path)


def load_checkpoint(model, folder):
    model.load_state_dict(_torch.load(_os.path.join(folder, "checkpoint.pt")))
