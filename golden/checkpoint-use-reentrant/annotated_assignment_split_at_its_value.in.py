# An annotated assignment whose annotation has brackets of its own is split at its value's
# last bracket pair, as black splits it (terratorch's ViT adapter at ruff's 119, round 19).
import torch
import torch.utils.checkpoint as cp


class InjectorBlock(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        def _inner_forward(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            return x, x

        if self.with_cp and x.requires_grad:
            outs: tuple[torch.Tensor, torch.Tensor] = cp.checkpoint(_inner_forward, x)
        else:
            outs = _inner_forward(x)
        return outs
