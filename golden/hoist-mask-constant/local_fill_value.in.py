import torch
import torch.nn.functional as F


def masked_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, pad: torch.Tensor):
    scores = q @ k.transpose(-2, -1)
    # One fill value for both masks.
    mask_value = torch.tensor(-1e4, device=scores.device)
    scores = scores.masked_fill(pad[:, None, None, :], mask_value)
    causal = torch.ones_like(scores, dtype=torch.bool).triu(1)
    scores.masked_fill_(causal, mask_value)
    return F.softmax(scores, dim=-1) @ v


def match_indices(indices: torch.Tensor, mutual: torch.Tensor) -> torch.Tensor:
    unmatched = indices.new_tensor(-1)
    return torch.where(mutual, indices, unmatched)


class MaskedCategorical:
    def __init__(self, logits: torch.Tensor, mask: torch.Tensor) -> None:
        if mask is not None:
            neg_inf = torch.tensor(float("-inf"), dtype=logits.dtype, device=logits.device)

            logits = logits.masked_fill(~mask, neg_inf)
        self.logits = logits
