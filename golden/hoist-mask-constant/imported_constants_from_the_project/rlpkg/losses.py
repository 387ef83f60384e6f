"""Values whose number is not known here: every fix stays unsafe."""
import torch
from otherlib.constants import BANNED_LOGIT  # not part of this project

from rlpkg.constants import INVALID_LOGIT, LARGE_NEGATIVE
from rlpkg.generated import LOGIT_FLOOR  # written at build time: not in the repository
from rlpkg.settings import PAD_LOGIT


def masked_scores(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    scores = scores.masked_fill(~mask, torch.tensor(LARGE_NEGATIVE, dtype=scores.dtype))
    scores = scores.masked_fill(mask.isnan(), torch.tensor(INVALID_LOGIT))
    scores = scores.masked_fill(mask.isinf(), torch.tensor(PAD_LOGIT, device=scores.device))
    scores = scores.masked_fill(mask.isneginf(), torch.tensor(LOGIT_FLOOR))
    return scores.masked_fill(mask.isposinf(), torch.tensor(BANNED_LOGIT))
