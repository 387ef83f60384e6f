# golden-args: --unsafe-fixes
import torch


def mask_scores(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    # The float16 tensor holds -inf; a -1e9 scalar would not fit float16 and raise.
    scores = scores.masked_fill(mask, torch.tensor(-1e9, dtype=scores.dtype, device=scores.device))
    scores = scores.masked_fill(mask.isnan(), scores.new_tensor(-1e30))
    # float32 rounds the float64 limit to -inf.
    scores = scores.masked_fill(mask.isinf(), torch.tensor(torch.finfo(scores.dtype).min))
    # A cast wraps into an integer tensor where masked_fill would raise.
    scores = scores.masked_fill(mask.isneginf(), torch.tensor(-1e4).to(scores.dtype))
    # 0.1 is not a float32: a float64 tensor gets 0.10000000149 today.
    return scores.masked_fill(mask.logical_not(), torch.tensor(0.1, device=scores.device))
