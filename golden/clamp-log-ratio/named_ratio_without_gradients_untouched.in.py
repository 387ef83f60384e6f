import torch


def log_ratio_statistics(log_weight, log_prob):
    # logged, not trained on: clamping would hide how far the policy moved
    with torch.no_grad():
        ratio = log_weight.exp()
        return {"max_ratio": ratio.max(), "mean_ratio": ratio.mean(), "log_prob": log_prob.mean()}


@torch.no_grad()
def ratio_histogram(batch):
    return torch.histc(batch.log_ratio.exp(), bins=20)
