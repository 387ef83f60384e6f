import torch

from .typing import BoolTensor, FloatTensor


def isin_many_dim(elements: torch.Tensor, test_elements: torch.Tensor) -> BoolTensor:
    inverse, counts = torch.cat([elements, test_elements]).unique(return_inverse=True,
                                                                  return_counts=True)
    return counts[inverse[: elements.shape[0]]] > 1


def scores(model: torch.nn.Module, batch: torch.Tensor) -> FloatTensor:
    return model(batch)
