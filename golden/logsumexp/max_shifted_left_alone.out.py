# golden-args: --unsafe-fixes
# A sum of exponentials of `x - max` cannot overflow: the helper is stable already
# (retinaface's and pytorch-crf's `log_sum_exp`, rounds 24 and 26: "pointless"). Left
# alone; the plain form is rewritten.
import torch


def log_sum_exp(x):
    x_max = x.data.max()
    return torch.log(torch.sum(torch.exp(x - x_max), 1, keepdim=True)) + x_max


def log_sum_exp_rows(x):
    return torch.log(torch.sum(torch.exp(x - torch.max(x, 1, keepdim=True)[0]), 1))


def log_norm(logits):
    return torch.logsumexp(logits, dim=-1)
