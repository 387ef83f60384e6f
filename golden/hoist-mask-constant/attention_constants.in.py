import math

import torch as th
import torch.nn.functional as F
from torch import nn

NEG_INF = float("-inf")


class CausalSelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x: th.Tensor, pad_mask: th.Tensor) -> th.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        att = q.transpose(1, 2) @ k.transpose(1, 2).transpose(-2, -1) / math.sqrt(d)
        causal = th.ones(t, t, dtype=th.bool, device=x.device).triu(1)
        att = att.masked_fill(causal, th.tensor(NEG_INF, device=att.device))
        att = att.masked_fill(
            pad_mask[:, None, None, :],
            th.tensor(th.finfo(att.dtype).min, dtype=att.dtype, device=att.device),
        )
        att = th.masked_fill(att, ~pad_mask[:, None, :, None], value=th.tensor(-math.inf))
        return F.softmax(att, dim=-1) @ v.transpose(1, 2)

    def alibi(self, att: th.Tensor, mask: th.Tensor) -> th.Tensor:
        return att.masked_fill(mask, th.tensor(th.finfo(th.float16).min)).masked_fill(
            mask.isnan(), th.tensor(-1e4, dtype=th.float16, device=att.device)
        )

    def relative(self, att: th.Tensor, far: th.Tensor) -> th.Tensor:
        return att.masked_fill(far, th.tensor(-1e4).to(att.device)).masked_fill(
            far.isnan(), th.tensor(-1e9).to(att.device)
        )
