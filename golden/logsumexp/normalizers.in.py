# golden-args: --unsafe-fixes
import torch


def normalizers(logits, scores):
    log_norm = torch.log(torch.sum(torch.exp(logits), dim=-1))
    per_row = torch.log(torch.sum(torch.exp(scores), 1, keepdim=True))
    by_name = torch.log(torch.sum(torch.exp(scores), dim=1, keepdim=False))
    return log_norm, per_row, by_name
