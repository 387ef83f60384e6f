import torch


def reduce_labels(label: torch.Tensor) -> torch.Tensor:
    # torch < 1.12 refuses a Python number in torch.where: the constant tensor stays
    return torch.where(label == 0, torch.tensor(255, dtype=label.dtype, device=label.device), label)


def masked_scores(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    # masked_fill takes a number on every torch: still fixed
    return scores.masked_fill(~mask, torch.tensor(-1e4, dtype=scores.dtype))
