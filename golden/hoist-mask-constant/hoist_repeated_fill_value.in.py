# golden-args: --unsafe-fixes
"""Transformer blocks with additive and masked attention."""
import math

import torch
from torch import nn


class EncoderLayer(nn.Module):
    def attend(self, q: torch.Tensor, k: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        scores = scores.masked_fill(pad[:, None, None, :], -1e9)
        return scores.softmax(-1)


class DecoderLayer(nn.Module):
    def attend(self, q: torch.Tensor, k: torch.Tensor, causal: torch.Tensor) -> torch.Tensor:
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        scores = scores.masked_fill(causal, torch.tensor(-1e9, device=scores.device))
        return scores.softmax(-1)

    def cross(self, scores: torch.Tensor, memory_mask: torch.Tensor) -> torch.Tensor:
        return torch.where(memory_mask, scores, -1e9).softmax(-1)

    def small_values(self, a, b, c, mask):
        # Zeros and small sentinels are not worth a name.
        return a.masked_fill(mask, 0.0), b.masked_fill(mask, 0.0), c.masked_fill(mask, 0.0)

    def twice(self, a, b, mask):
        return a.masked_fill(mask, -1e4), b.masked_fill(mask, -1e4)
