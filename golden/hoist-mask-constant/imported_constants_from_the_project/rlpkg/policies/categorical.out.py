import torch
from torch.distributions import Categorical

from rlpkg.constants import MASKED_LOGIT_VALUE


class MaskedCategorical(Categorical):
    """A categorical distribution over the legal actions only."""

    def __init__(self, logits: torch.Tensor, mask: torch.Tensor) -> None:
        self.masked_logits = logits.masked_fill(~mask, MASKED_LOGIT_VALUE)
        super().__init__(logits=self.masked_logits)
