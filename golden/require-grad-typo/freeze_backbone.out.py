# golden-args: --unsafe-fixes
# An unsafe fix: fixed, the assignment takes effect, and which parameters train changes.
import torch


def freeze(backbone, head):
    for param in backbone.parameters():
        param.requires_grad = False
    head.weight.requires_grad = True
    mask = torch.zeros(3)
    mask.requires_grad = False
    return backbone, head, mask
