import torch


def quantization_bounds(x, lower_percentile, upper_percentile, n_elements):
    upper = torch.kthvalue(x.view(-1), k=round(n_elements * upper_percentile * 0.01)).values
    lower = -torch.kthvalue(-x.view(-1), k=round(x.numel() * (1 - lower_percentile * 0.01))).values
    value, index = torch.kthvalue(x.view(-1), int(0.5 * x.numel()))
    return lower, upper, value, index
