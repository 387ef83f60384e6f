import torch


def returned_too(logits: torch.Tensor, mask: torch.Tensor):
    fill = torch.tensor(-1e4, device=logits.device)
    return logits.masked_fill(~mask, fill), fill


def used_in_arithmetic(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    fill = torch.tensor(-1e4, device=logits.device)
    logits = logits.masked_fill(~mask, fill)
    return logits - fill


def passed_on(logits: torch.Tensor, mask: torch.Tensor, hook) -> torch.Tensor:
    fill = torch.tensor(-1e4, device=logits.device)
    hook(fill)
    return logits.masked_fill(~mask, fill)


def assigned_twice(logits: torch.Tensor, mask: torch.Tensor, fp16: bool) -> torch.Tensor:
    fill = torch.tensor(-1e9, device=logits.device)
    if fp16:
        fill = torch.tensor(-1e4, device=logits.device)
    return logits.masked_fill(~mask, fill)


def used_in_closure(logits: torch.Tensor, masks: list) -> list:
    fill = torch.tensor(-1e4, device=logits.device)
    apply = lambda m: logits.masked_fill(~m, fill)  # noqa: E731
    return [apply(m) for m in masks]


def used_before_assignment(steps: list, mask: torch.Tensor) -> list:
    out = []
    for step, logits in enumerate(steps):
        if step:
            out.append(logits.masked_fill(~mask, fill))  # noqa: F821
        fill = torch.tensor(-1e4)
    return out


def last_in_block(logits: torch.Tensor, mask: torch.Tensor, training: bool) -> torch.Tensor:
    if training:
        fill = torch.tensor(-1e4, device=logits.device)
    return logits.masked_fill(~mask, fill)


def constant_changes(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    fill = torch.tensor(torch.finfo(logits.dtype).min, dtype=logits.dtype)
    logits = logits.float()
    return logits.masked_fill(~mask, fill)


def semicolons(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    fill = torch.tensor(-1e4); out = logits.masked_fill(~mask, fill)  # noqa: E702
    return out


def where_with_two_tensor_locals(norm: torch.Tensor, device) -> torch.Tensor:
    one = torch.tensor(1.0, device=device)
    zero = torch.tensor(0.0, device=device)
    return torch.where(norm > 0, one, zero)


FILL = torch.tensor(-1e4)


def module_level_tensor(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return logits.masked_fill(~mask, FILL)
