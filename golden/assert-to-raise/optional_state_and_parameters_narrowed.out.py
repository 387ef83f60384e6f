from dataclasses import dataclass
from typing import Optional

import torch


class Embeddings(torch.nn.Module):
    def forward(self, input_ids, lengths: Optional[torch.Tensor] = None, mapping=None,
                *, word_ids: "torch.Tensor | None"):
        if self.long_sentences:
            assert mapping is not None
        assert lengths is not None
        assert word_ids is not None
        assert input_ids is not None
        return input_ids


class GhostBatchNorm:
    def apply(self, event, state, logger=None):
        assert state.model is not None, "Model must be in state"
        assert state.optimizers is not None
        assert event is not None, "an event is required"
        return state.model


@dataclass
class Config:
    path: Optional[str] = None

    def __post_init__(self):
        if self.path is None:
            raise ValueError("path is required")
