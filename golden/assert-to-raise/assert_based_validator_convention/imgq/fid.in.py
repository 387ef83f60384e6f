"""FID from precomputed features: no tensor images, no shared input check."""
import torch


def frechet_distance(mu1: torch.Tensor, mu2: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    assert mu1.shape == mu2.shape, "Training and test mean vectors have different lengths"
    return (mu1 - mu2).pow(2).sum() + eps
