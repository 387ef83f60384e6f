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


def log_sum_exp_crf(vec, m_size):
    # the maximum, broadcast back to the input's shape (yqn's pytorch_crf, round 47)
    _, idx = torch.max(vec, 1)
    batch_size = vec.size(0)
    max_score = torch.gather(vec, 1, idx.view(batch_size, 1, m_size)).view(batch_size, 1, m_size)
    return max_score.view(batch_size, m_size) + torch.log(torch.sum(
        torch.exp(vec - max_score.expand_as(vec)), 1)).view(batch_size, m_size)


def log_norm(logits):
    return torch.log(torch.sum(torch.exp(logits), dim=-1))
