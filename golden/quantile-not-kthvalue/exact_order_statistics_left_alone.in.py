import torch


def median(output):
    n = len(output)
    if n % 2 == 0:
        return float((torch.kthvalue(output, n // 2)[0] + torch.kthvalue(output, n // 2 + 1)[0]) / 2)
    return float(torch.kthvalue(output, n // 2 + 1)[0])


def budget_threshold(scores, budget):
    return torch.kthvalue(torch.cat(scores), k=budget)[0].item()


def second_smallest(x):
    return x.kthvalue(2).values


def doubled(x):
    return x.kthvalue(int(2 * x.numel() // 3)).values
