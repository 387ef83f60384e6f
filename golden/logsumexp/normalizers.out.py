# golden-args: --unsafe-fixes
import torch


def normalizers(logits, scores):
    log_norm = torch.logsumexp(logits, dim=-1)
    per_row = torch.logsumexp(scores, 1, keepdim=True)
    by_name = torch.logsumexp(scores, dim=1, keepdim=False)
    return log_norm, per_row, by_name
