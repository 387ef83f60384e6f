import numpy as np
import torch


class Head(torch.nn.Module):
    fill_value = -1e4

    def forward(self, logits, mask, values, pad_value, get_device):
        a = logits.masked_fill(~mask, torch.tensor(values))
        b = logits.masked_fill(~mask, torch.tensor(self.fill_value))
        c = logits.masked_fill(~mask, torch.tensor(pad_value, device=logits.device))
        d = logits.masked_fill(~mask, torch.tensor(-1e4, requires_grad=True))
        e = torch.where(mask, logits, torch.tensor([-1e4, 0.0]))
        f = logits.masked_fill(~mask, torch.tensor(-1e4, device=get_device()))
        g = logits.masked_fill(
            ~mask,
            torch.tensor(
                -1e4,  # fp16-safe
                device=logits.device,
            ),
        )
        h = np.where(mask.numpy(), logits.numpy(), torch.tensor(-1e4))
        return a, b, c, d, e, f, g, h

    def not_the_fill_operand(self, logits, mask, scores):
        keep = mask == torch.tensor(False)
        logits = logits.masked_fill(torch.tensor(True), 0.0)
        scores = scores + torch.tensor(-1e4, device=scores.device)
        return torch.where(torch.tensor(True), logits, scores), keep
