# golden-args: --unsafe-fixes
# This file contains code copied from the DeepSeek-V3.2-Exp project.
# Differences from https://huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp: the kernels are
# replaced by their torch reference implementations.
import torch


def act_quant(x: torch.Tensor, block_size: int = 128) -> torch.Tensor:
    assert x.size(-1) % block_size == 0, "last dimension must divide into blocks"
    return x.view(-1, block_size)
