import torch


def fills(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    logits = logits.masked_fill(~mask, torch.tensor(-1e8))  # torchfix: ignore
    logits = logits.masked_fill(mask.isnan(), torch.tensor(-1e8))  # torchfix: ignore[hoist-mask-constant]
    return logits


def local(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    fill = torch.tensor(float("-inf"), device=logits.device)
    logits = logits.masked_fill(~mask, fill)
    return logits.masked_fill(
        mask.isnan(),
        fill,
    )  # torchfix: ignore
