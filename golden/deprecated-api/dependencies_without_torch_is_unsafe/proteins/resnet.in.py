# tape-proteins (round 29) lists no torch among its dependencies; its repository pins
# torch 1.1.0, which has no torch.outer (torch 1.8). An unsafe fix.
import torch


def pairwise(left, right):
    return torch.ger(left, right)
