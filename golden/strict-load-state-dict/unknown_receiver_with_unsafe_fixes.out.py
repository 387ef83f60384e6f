# golden-args: --unsafe-fixes
import torch


def restore(trainer, path):
    state = torch.load(path)
    trainer.load_state_dict(state, strict=True)
