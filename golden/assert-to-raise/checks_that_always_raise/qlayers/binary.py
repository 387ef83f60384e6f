import torch
from torch import nn


class BinaryEmbeddingBag(nn.Module):
    """Sets num_embeddings on its own instances: that says nothing of QEmbeddingBag."""

    def __init__(self, num_embeddings: int, embedding_dim: int) -> None:
        super().__init__()
        self.num_embeddings = num_embeddings
        self.weight = nn.Parameter(torch.empty(num_embeddings, embedding_dim))
