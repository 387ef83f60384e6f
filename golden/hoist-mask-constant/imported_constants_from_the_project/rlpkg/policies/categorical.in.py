import torch
from torch.distributions import Categorical

from rlpkg.constants import MASKED_LOGIT_VALUE


class MaskedCategorical(Categorical):
    """A categorical distribution over the legal actions only."""

    def __init__(self, logits: torch.Tensor, mask: torch.Tensor) -> None:
        mask_value = torch.tensor(MASKED_LOGIT_VALUE, device=logits.device, dtype=logits.dtype)
        self.masked_logits = logits.masked_fill(~mask, mask_value)
        super().__init__(logits=self.masked_logits)
