# golden-args: --unsafe-fixes
import torch

MASK = torch.zeros(4, 4, dtype=torch.bool).triu(1)
# Module and class bodies run at import time: only fills inside functions are counted,
# and one is not enough.
BIAS = torch.zeros(4, 4).masked_fill(MASK, -1e9)
CAUSAL = torch.zeros(4, 4).masked_fill(MASK.T, -1e9)


class Block:
    FILL = torch.zeros(4).masked_fill(torch.ones(4, dtype=torch.bool), -1e9)

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        return scores.masked_fill(MASK, -1e9)
