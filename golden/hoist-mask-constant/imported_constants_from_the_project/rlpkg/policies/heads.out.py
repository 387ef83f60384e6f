from torch import Tensor, nn

import rlpkg
from rlpkg import MASKED_LOGIT_VALUE, constants


class ActionHead(nn.Module):
    def __init__(self, hidden: int, n_actions: int) -> None:
        super().__init__()
        self.linear = nn.Linear(hidden, n_actions)

    def forward(self, features: Tensor, legal: Tensor) -> Tensor:
        logits = self.linear(features)
        # Through the package's re-export, with the constructor imported under another name.
        return logits.masked_fill(~legal, MASKED_LOGIT_VALUE)

    def greedy(self, features: Tensor, legal: Tensor) -> Tensor:
        logits = self.linear(features)
        logits = logits.masked_fill(~legal, constants.MASKED_LOGIT_VALUE)
        return logits.masked_fill(legal.isnan(), rlpkg.MASKED_LOGIT_VALUE).argmax(-1)
