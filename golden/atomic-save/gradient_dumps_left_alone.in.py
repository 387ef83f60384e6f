# golden-args: --unsafe-fixes
import torch


class GaLoreAdamW(torch.optim.Optimizer):
    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p is self.param_groups[0]["params"][0]:
                    torch.save(p.grad, "grad.pt")
                    torch.save(p.grad.detach().cpu(), "grad_cpu.pt")
                p.add_(p.grad, alpha=-group["lr"])


def save_weights(model: torch.nn.Module, path: str) -> None:
    torch.save(model.state_dict(), path)
