from dataclasses import dataclass
from typing import Optional

import torch


class Embeddings(torch.nn.Module):
    def forward(self, input_ids, lengths: Optional[torch.Tensor] = None, mapping=None,
                *, word_ids: "torch.Tensor | None"):
        if self.long_sentences:
            if mapping is None:
                raise ValueError("expected mapping is not None")
        if lengths is None:
            raise ValueError("expected lengths is not None")
        if word_ids is None:
            raise ValueError("expected word_ids is not None")
        if input_ids is None:
            raise ValueError("expected input_ids is not None")
        return input_ids


class GhostBatchNorm:
    def apply(self, event, state, logger=None):
        if state.model is None:
            raise ValueError("Model must be in state")
        if state.optimizers is None:
            raise ValueError("expected state.optimizers is not None")
        if event is None:
            raise ValueError("an event is required")
        return state.model


@dataclass
class Config:
    path: Optional[str] = None

    def __post_init__(self):
        if self.path is None:
            raise ValueError("path is required")
