# golden-args: --unsafe-fixes
import torch
from torch.distributions import Categorical

from .leyline import MASKED_LOGIT_VALUE


class MaskedCategorical(Categorical):
    def __init__(self, logits: torch.Tensor, mask: torch.Tensor) -> None:
        self.masked_logits = logits.masked_fill(~mask, MASKED_LOGIT_VALUE)
        super().__init__(logits=self.masked_logits)


def penalize(scores: torch.Tensor, banned: torch.Tensor, config) -> torch.Tensor:
    return scores.masked_fill(banned, config.BANNED_SCORE)
