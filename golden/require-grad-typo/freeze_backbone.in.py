# golden-args: --unsafe-fixes
# An unsafe fix: fixed, the assignment takes effect, and which parameters train changes.
import torch


def freeze(backbone, head):
    for param in backbone.parameters():
        param.require_grad = False
    head.weight.require_grad = True
    mask = torch.zeros(3)
    mask.require_grad = False
    return backbone, head, mask
