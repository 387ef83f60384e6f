# golden-args: --unsafe-fixes
import torch
from torch import nn


class ReconstructionDetector(nn.Module):
    def __init__(self, threshold_percentile: float = 95.0):
        super().__init__()
        self.threshold_percentile = threshold_percentile
        self.register_buffer("threshold", torch.tensor(0.0))

    def calibrate(self, errors: torch.Tensor) -> None:
        k = int(self.threshold_percentile / 100.0 * errors.numel())
        self.threshold = torch.quantile(errors.view(-1), self.threshold_percentile / 100.0)

    def clip_bound(self, grads, q=0.9):
        flat = grads.flatten()
        return torch.quantile(flat, q)

    def per_row(self, scores):
        n = scores.shape[1]
        return torch.quantile(scores, 0.75, dim=1)
