import torch


def decode(step_logits: list, mask: torch.Tensor) -> list:
    logits = step_logits[0]
    fill = torch.tensor(-1e4, dtype=logits.dtype)
    out = []
    for step in step_logits:
        out.append(logits.masked_fill(~mask, fill))
        # From here on `logits` may be float16, while `fill` kept the first step's dtype.
        logits = step.half()
    return out


def rescore(scores: torch.Tensor, banned: torch.Tensor) -> torch.Tensor:
    scores = scores.masked_fill(banned, -1e4)  # rebinds `scores` after reading it
    return scores.softmax(-1)
