import torch


def reduce_labels(label: torch.Tensor) -> torch.Tensor:
    label = torch.where(label == 0, torch.tensor(255, dtype=label.dtype, device=label.device), label)
    return torch.where(label == 254, torch.tensor(255, dtype=label.dtype), label)


def match(scores: torch.Tensor, indices: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    indices = torch.where(valid, indices, indices.new_tensor(-1))
    scores = torch.where(valid, scores, torch.tensor(float("nan"), dtype=scores.dtype))
    # float32 first: the float64 limit would have become -inf before `.to(scores)`.
    return torch.where(valid, scores, torch.tensor(torch.finfo(scores.dtype).min).to(scores))


def masked_entropy(logits: torch.Tensor, probs: torch.Tensor, masks: torch.Tensor):
    p_log_p = logits * probs
    # A 0-dim float16 operand would turn float32 with the constant, and stay float16 without.
    p_log_p = torch.where(masks, p_log_p, torch.tensor(0.0, device=p_log_p.device))
    return -p_log_p.sum(-1)


def clip_coef(total_norm: torch.Tensor, inf_or_nan: torch.Tensor) -> torch.Tensor:
    total_norm = torch.where(inf_or_nan, torch.tensor(-1.0, dtype=torch.float), total_norm)
    return torch.where(inf_or_nan, total_norm, torch.tensor(0.0).to(total_norm))


def policy_logits(logits: torch.Tensor, masks: torch.Tensor, device) -> torch.Tensor:
    return torch.where(masks, logits, torch.tensor(-1e8).to(device))


def keep_flags(flags: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
    # A bool `flags` stays bool with the constant, and would turn int64 with a 0.
    return torch.where(valid, flags, torch.tensor(0, dtype=flags.dtype))
