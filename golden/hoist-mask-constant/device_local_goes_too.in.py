import torch


class MaskedDistribution:
    def apply_masks(self, masks: torch.Tensor) -> torch.Tensor:
        device = self.logits.device
        # The device is still needed for the masks themselves.
        self.masks = torch.as_tensor(masks, dtype=torch.bool, device=device)
        return self.logits.masked_fill(~self.masks, torch.tensor(-1e8, device=device))

    def masked_log_probs(self, masks: torch.Tensor) -> torch.Tensor:
        device = self.logits.device

        fill = torch.tensor(float("-inf"), dtype=self.logits.dtype, device=device)
        return self.logits.masked_fill(~masks, fill).log_softmax(-1)
