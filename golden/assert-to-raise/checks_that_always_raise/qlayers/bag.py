import torch
from torch import nn


class QEmbeddingBag(nn.Module):
    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None) -> None:
        super().__init__()
        if padding_idx is not None:
            # num_embeddings is never set on this class: AttributeError, not the check
            assert padding_idx < self.num_embeddings, "padding_idx must be within num_embeddings"
        self.padding_idx = padding_idx
        self.embedding_dim = embedding_dim
        self.weight = nn.Parameter(torch.empty(num_embeddings, embedding_dim))

    def resize(self, embedding_dim: int) -> None:
        # set in __init__: an ordinary input check
        assert embedding_dim >= self.embedding_dim, "embedding_dim may only grow"
        self.embedding_dim = embedding_dim


class Base(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # set by the subclass below: left to the usual decision
        assert x.shape[-1] == self.width, "last dimension must be width"
        return x


class Wide(Base):
    def __init__(self) -> None:
        super().__init__()
        self.width = 512
