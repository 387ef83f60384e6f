import torch
from torch import nn


class FeatureMatchingLoss(nn.Module):
    def forward(self, fake: list[torch.Tensor], real: list[torch.Tensor]) -> torch.Tensor:
        assert len(fake) > 0, "expected at least one feature map"
        assert len(fake) == len(real), "fake and real feature maps differ in number"
        return sum(nn.functional.l1_loss(f, r) for f, r in zip(fake, real))


class HingeLoss(nn.Module):
    def forward(self, logits: torch.Tensor) -> torch.Tensor:
        assert logits.dim() == 2, "expected (batch, classes) logits"
        return torch.relu(1 - logits).mean()


class MelLoss(nn.Module):
    def forward(self, mel: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        assert mel.shape == target.shape, "mel and target shapes differ"
        return nn.functional.l1_loss(mel, target)
