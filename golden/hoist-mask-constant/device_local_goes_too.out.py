import torch


class MaskedDistribution:
    def apply_masks(self, masks: torch.Tensor) -> torch.Tensor:
        device = self.logits.device
        # The device is still needed for the masks themselves.
        self.masks = torch.as_tensor(masks, dtype=torch.bool, device=device)
        return self.logits.masked_fill(~self.masks, -1e8)

    def masked_log_probs(self, masks: torch.Tensor) -> torch.Tensor:
        return self.logits.masked_fill(~masks, float("-inf")).log_softmax(-1)
