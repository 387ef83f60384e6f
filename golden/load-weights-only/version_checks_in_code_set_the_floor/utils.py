import torch

TORCH_VERSION = tuple(int(part) for part in torch.__version__.split(".")[:2])


def inference_context():
    # torch.inference_mode exists from 1.9: the code still runs on 1.8.
    if TORCH_VERSION >= (1, 9):
        return torch.inference_mode()
    return torch.no_grad()
