import torch
import torch.nn.functional as F


def masked_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, pad: torch.Tensor):
    scores = q @ k.transpose(-2, -1)
    # One fill value for both masks.
    scores = scores.masked_fill(pad[:, None, None, :], -1e4)
    causal = torch.ones_like(scores, dtype=torch.bool).triu(1)
    scores.masked_fill_(causal, -1e4)
    return F.softmax(scores, dim=-1) @ v


def match_indices(indices: torch.Tensor, mutual: torch.Tensor) -> torch.Tensor:
    return torch.where(mutual, indices, -1)


class MaskedCategorical:
    def __init__(self, logits: torch.Tensor, mask: torch.Tensor) -> None:
        if mask is not None:
            logits = logits.masked_fill(~mask, float("-inf"))
        self.logits = logits
