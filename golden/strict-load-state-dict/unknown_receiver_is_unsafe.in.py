import torch


def restore(trainer, path):
    state = torch.load(path)
    trainer.load_state_dict(state)
    trainer.model_ema.load_state_dict(state["ema"])
