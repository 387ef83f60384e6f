import torch


def clip_flag(grad_norm: torch.Tensor, clip_norm: float) -> torch.Tensor:
    # Both operands are constants: with scalars the result dtype would follow them instead.
    return torch.where(grad_norm > clip_norm, grad_norm.new_tensor(100), grad_norm.new_tensor(0))


def gate(cond: torch.Tensor) -> torch.Tensor:
    scale = torch.where(cond, torch.tensor(1.0, device=cond.device), torch.tensor(255.0, device=cond.device))
    bias = torch.where(cond, 0.5, torch.tensor(-1.0))
    return scale, bias


def unit_scale(w_norm: torch.Tensor, g_norm: torch.Tensor, device) -> torch.Tensor:
    one = torch.tensor(1.0, device=device)
    zero = torch.tensor(0.0, device=device)
    return torch.where(g_norm > 0, one, zero)
