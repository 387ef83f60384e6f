import contextlib

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel


def evaluate(trainer, dataset, flash):
    if flash:
        with sdpa_kernel(
            [
                SDPBackend.FLASH_ATTENTION,
                SDPBackend.EFFICIENT_ATTENTION,
                SDPBackend.MATH,
                SDPBackend.CUDNN_ATTENTION,
            ]
        ):
            return trainer.evaluate(dataset)
    return trainer.evaluate(dataset)


def train(trainer, flash):
    with contextlib.ExitStack() as stack:
        if flash:
            stack.enter_context(
                sdpa_kernel(
                    [
                        SDPBackend.FLASH_ATTENTION,
                        SDPBackend.EFFICIENT_ATTENTION,
                        SDPBackend.MATH,
                        SDPBackend.CUDNN_ATTENTION,
                    ]
                )
            )
        trainer.train()
    return torch.cuda.max_memory_allocated()


def short(model, x):
    with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]):
        return model(x)
