"""FID from precomputed features: no tensor images, no shared input check."""
import torch


def frechet_distance(mu1: torch.Tensor, mu2: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    if mu1.shape != mu2.shape:
        raise ValueError("Training and test mean vectors have different lengths")
    return (mu1 - mu2).pow(2).sum() + eps
