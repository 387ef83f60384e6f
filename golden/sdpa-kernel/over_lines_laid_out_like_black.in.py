import contextlib

import torch


def evaluate(trainer, dataset, flash):
    if flash:
        with torch.backends.cuda.sdp_kernel(
            enable_flash=True,
            enable_math=True,
            enable_mem_efficient=True,
        ):
            return trainer.evaluate(dataset)
    return trainer.evaluate(dataset)


def train(trainer, flash):
    with contextlib.ExitStack() as stack:
        if flash:
            stack.enter_context(
                torch.backends.cuda.sdp_kernel(
                    enable_flash=True,
                    enable_math=True,
                    enable_mem_efficient=True,
                )
            )
        trainer.train()
    return torch.cuda.max_memory_allocated()


def short(model, x):
    with torch.backends.cuda.sdp_kernel(
        enable_flash=False,
        enable_cudnn=False,
    ):
        return model(x)
