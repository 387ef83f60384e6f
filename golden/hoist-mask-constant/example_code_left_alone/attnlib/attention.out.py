import torch


def masked_scores(scores, mask):
    return scores.masked_fill(~mask, -1e9)
