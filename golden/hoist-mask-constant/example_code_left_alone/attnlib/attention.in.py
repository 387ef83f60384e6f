import torch


def masked_scores(scores, mask):
    return scores.masked_fill(~mask, torch.tensor(-1e9))
